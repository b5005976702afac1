// rule: CppRestrictions.ExternCallWithRelocatableDeviceCode
// section: PG12.9 18.5.10.1
// statement: with relocatable device code, device code may call an extern function defined in another unit
// flags.nvcc: -rdc=true
// flags.clang: -fgpu-rdc
// flags.nvrtc: -rdc=true
extern __device__ int defined_elsewhere(int);

__global__ void kernel(int* out) { *out = defined_elsewhere(*out); }
