// rule: CppRestrictions.FunctionStaticVariablesInDeviceFunction
// section: PG12.9 18.5.10.4
// statement: in a __device__ function, static variables may carry memory space specifiers (an implicit __device__
//   otherwise) and constant initializers
struct S1_t {
  int x;
};

__device__ int f1() {
  static int i1;
  static int i2 = 11;
  static __managed__ int m1;
  static __device__ int d1;
  static __constant__ int c1;
  static S1_t i3;
  static S1_t i4 = {22};
  static __shared__ int i5;
  return i1 + i2 + m1 + d1 + c1 + i3.x + i4.x + i5;
}
