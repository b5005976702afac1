// rule: CppRestrictions.NoReferenceToConstHostVariable
// section: PG12.9 18.5.14
// statement: device code cannot contain a reference to a const host variable
// skip.nvrtc: host variable (NVRTC compiles device code only and takes namespace-scope variables as device
//   variables)
// error: error: identifier "xxx" is undefined in device code
// error.clang: error: reference to __host__ variable 'xxx' in __device__ function
const int xxx = 10;

__device__ int foo(void) {
  const int& ref = xxx;
  return ref;
}
