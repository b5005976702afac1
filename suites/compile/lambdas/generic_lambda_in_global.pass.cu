// rule: Lambdas.GenericLambdaInGlobalIsDevice
// section: PG12.9 18.5.22.1
// statement: a generic lambda defined in a __global__ function has a __device__ closure class (operator() template
//   included) and is callable there
// std: c++17
__global__ void kernel(int* out) {
  auto generic = [](auto a) { return a + 1; };
  static_assert(generic(1) == 2 && generic(1.5) == 2.5, "the operator() template, in constant expressions");
  *out = generic(1);
}
