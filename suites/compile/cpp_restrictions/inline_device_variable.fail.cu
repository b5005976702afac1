// rule: CppRestrictions.InlineDeviceVariableNeedsInternalLinkage
// section: PG12.9 18.5.24.1
// statement: in whole program compilation, a namespace scope inline __device__ variable must have internal linkage
// error: error: An inline __device__(/__constant__/__managed__)? variable must have internal linkage when the program
//   is compiled in whole program mode
// note: nvcc 13.0.88 names __device__/__constant__/__managed__, 13.5.37 only __device__: both wordings match
// error.clang: error: .*inline
inline __device__ int xxx;

__global__ void kernel(int* out) { *out = xxx; }
