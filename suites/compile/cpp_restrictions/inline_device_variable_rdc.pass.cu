// rule: CppRestrictions.InlineDeviceVariableInSeparateCompilation
// section: PG12.9 18.5.24.1
// statement: in separate compilation, a namespace scope inline __device__ variable with external linkage is allowed
// flags.nvcc: -rdc=true
// flags.clang: -fgpu-rdc
// flags.nvrtc: -rdc=true
inline __device__ int xxx;

__global__ void kernel(int* out) { *out = xxx; }
