// rule: NvAbi.NeedsAnArgument
// section: 5.4.9.6
// statement: #pragma nv_abi needs at least one argument
// skip.clang: #pragma nv_abi is an nvcc pragma
// error: error: #pragma nv_abi requires an argument
#pragma nv_abi
__device__ void dev_func();
