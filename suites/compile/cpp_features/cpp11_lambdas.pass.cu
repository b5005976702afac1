// rule: CppFeatures.Cpp11LambdaExpressions
// section: PG12.9 18.1
// statement: lambda expressions (C++11) are available in device code
__global__ void kernel(int* out) {
  int base = 10;
  auto add = [base](int x) { return base + x; };
  auto count = [&out](int x) { *out += x; };
  count(add(5));
}
