// rule: CppFeatures.Cpp11AutoDecltypeTrailingReturn
// section: PG12.9 18.1
// statement: auto-typed variables, decltype and the new function declarator syntax (C++11) are available in device
//   code
__device__ auto twice(int x) -> decltype(x * 2) { return x * 2; }

__global__ void kernel(int* out) {
  auto a = 2, b = 3;
  decltype(a + b) c = twice(a) + b;
  *out = c;
}
