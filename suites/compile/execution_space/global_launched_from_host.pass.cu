// rule: ExecutionSpace.GlobalCallableFromHost
// section: 5.4.1.1
// statement: a __global__ function executes on the device and is callable from the host (Table 38)
// skip.nvrtc: host code (NVRTC compiles device code only)
__global__ void kernel(int* out) { *out = 1; }

void launch(int* out) { kernel<<<1, 1>>>(out); }
