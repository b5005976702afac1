// rule: CppRestrictions.FunctionStaticNoNonEmptyConstructor
// section: PG12.9 18.5.10.4
// statement: a static variable in a __device__ function has the initialization restrictions of a __device__
//   variable: a class with a non-empty constructor is rejected
// error: error: dynamic initialization is not supported for a function-scope static __device__ variable within a
//   __device__/__global__ function
// error.clang: error: reference to __device__ function 'S2_t' in global initializer
struct S2_t {
  int x;
  __device__ S2_t(void) { x = 10; }
};

__device__ int f1() {
  static S2_t i8;
  return i8.x;
}
