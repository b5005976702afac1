// rule: MemorySpace.ExternDeviceInSeparateCompilation
// section: PG12.9 18.5.3.1
// statement: in separate compilation mode, __device__ variables can be declared external with extern
// flags.nvcc: -rdc=true
// flags.clang: -fgpu-rdc
// flags.nvrtc: -rdc=true
extern __device__ int defined_elsewhere;

__global__ void kernel(int* out) { *out = defined_elsewhere; }
