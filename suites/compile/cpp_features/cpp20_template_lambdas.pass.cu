// rule: CppFeatures.Cpp20TemplateLambdas
// section: PG12.9 18.4
// statement: template parameter lists on lambdas (C++20) are available in device code
// std: c++20
__global__ void kernel(int* out) {
  auto generic = []<typename T>(T a) { return a + T(1); };
  *out = generic(1);
}
