// rule: ExecutionSpace.GlobalCallableFromDevice
// section: 5.4.1.1
// statement: a __global__ function is callable from the device (Table 38)
// flags.nvcc: -rdc=true
// flags.clang: -fgpu-rdc
// flags.nvrtc: -rdc=true
__global__ void child(int* out) { *out = 1; }

__global__ void parent(int* out) { child<<<1, 1>>>(out); }
