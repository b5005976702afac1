// rule: CppRestrictions.NoVolatileConstHostVariable
// section: PG12.9 18.5.14
// statement: a const host variable of volatile-qualified type cannot be used directly in device code
// skip.nvrtc: host variable (NVRTC compiles device code only and takes namespace-scope variables as device
//   variables)
// error: error: identifier "vvv" is undefined in device code
// error.clang: error: reference to __host__ variable 'vvv' in __device__ function
const volatile int vvv = 10;

__device__ int foo(void) { return vvv; }
