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

// What the features mean, checked where the language can: the designated members, the consteval value, the char8_t
// literal and the enumerator that using enum brings into scope.
constexpr Point designated{.x = 1, .y = 2};
static_assert(designated.x == 1 && designated.y == 2, "designated initializers name the members");
static_assert(compile_time(1) == 10, "consteval");
static_assert(sizeof(char8_t) == 1 && u8"z"[0] == u8'z' && u8"z"[1] == 0, "char8_t literal");
__host__ __device__ constexpr Axis using_enum_y() {
  using enum Axis;
  return Y;
}
static_assert(using_enum_y() == Axis::Y, "using enum brings the enumerators into scope");

__global__ void kernel(int* out) {
  Point p{.x = 1, .y = 2};
  const char8_t* text = u8"z";
  using enum Axis;
  Axis a = Y;
  *out = p.x + p.y + compile_time(1) + (text[0] == u8'z') + (a == Y) + global_constant;
}
