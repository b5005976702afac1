// rule: Lambdas.InDeviceFunctionIsDevice
// section: PG12.9 18.5.22.1
// statement: the closure class of a lambda in a __device__ function gets the enclosing function's execution space
//   (__device__), so the lambda is callable there
__device__ int f2(void) {
  auto l2 = [] { return 2; };
  return l2();
}
