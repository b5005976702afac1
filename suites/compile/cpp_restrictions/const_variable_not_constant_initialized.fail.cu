// rule: CppRestrictions.ConstVariableMustBeConstantInitialized
// section: PG12.9 18.5.14
// statement: a const host variable not initialized with a constant expression before the point of use cannot be
//   used in device code
// skip.nvrtc: host variable (NVRTC compiles device code only and takes namespace-scope variables as device
//   variables)
// error: error: identifier "zzz" is undefined in device code
// error.clang: error: reference to __host__ variable 'zzz' in __device__ function
extern const int zzz;

__device__ int foo(void) { return zzz; }

const int zzz = 20;
