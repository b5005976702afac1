// rule: CppFeatures.Cpp20LanguageFeatures
// section: PG12.9 18.4
// statement: designated initializers, consteval, constinit, char8_t and using enum (C++20) are available in device code
// std: c++20
struct Point {
  int x, y;
};
enum class Axis { X, Y };

__host__ __device__ consteval int compile_time(int v) { return v * 10; }
__device__ constinit int global_constant = 5;

__global__ void kernel(int* out) {
  Point p{.x = 1, .y = 2};
  const char8_t* text = u8"z";
  using enum Axis;
  Axis a = Y;
  *out = p.x + p.y + compile_time(1) + (text[0] == u8'z') + (a == Y) + global_constant;
}
