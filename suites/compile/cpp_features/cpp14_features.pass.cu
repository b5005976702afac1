// rule: CppFeatures.Cpp14LanguageFeatures
// section: PG12.9 18.2
// statement: binary literals, digit separators, deduced return types, init-capture, variable templates and
//   relaxed constexpr functions (C++14) are available in device code
// std: c++14
template <typename T>
__device__ constexpr T pi = T(3.1415926535897932385);

__host__ __device__ constexpr int factorial(int n) {
  int result = 1;
  for (int i = 2; i <= n; ++i) result *= i;
  return result;
}

__device__ auto half(int x) { return x / 2; }

__global__ void kernel(int* out) {
  static_assert(0b1010 == 10, "binary literal");
  static_assert(1'000'000 == 1000000, "digit separator");
  static_assert(factorial(5) == 120, "relaxed constexpr");
  auto captured = [value = 3] { return value * 2; };
  *out = half(8) + captured() + int(pi<float>);
}
