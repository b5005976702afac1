// rule: CppRestrictions.FunctionStaticNoDynamicInitialization
// section: PG12.9 18.5.10.4
// statement: a static variable in a __device__ function cannot be dynamically initialized (static int i6 = x)
// error: error: dynamic initialization is not supported for a function-scope static __device__ variable within a
//   __device__/__global__ function
// error.clang: error: .*(dynamic initialization|initializ)
__device__ int f1() {
  int x = 33;
  static int i6 = x;
  return i6;
}
