// rule: MaxNReg.OnlyOnGlobal
// section: 5.4.1.6
// statement: __maxnreg__ applies to __global__ functions only, not to __host__ or __device__ functions (Table 40)
// error: error: __maxnreg__ is only allowed on a __global__ function
// error.clang: error: .*maxnreg
__device__ void __maxnreg__(40) helper(int* out) { *out = 1; }
