// rule: DynamicParallelismCompile.DeviceLaunchNeedsRelocatableDeviceCode
// section: PG12.9 13.3.3.2
// statement: a kernel launch from device code needs separate compilation (-rdc=true); without it the launch is rejected
// error: error: kernel launch from __device__ or __global__ functions requires separate compilation mode
// error.clang: error: kernel launch from __device__ or __global__ function requires relocatable device code
// skip.nvrtc: NVRTC declares no device runtime API without -rdc, and rejects the launch for that reason instead
__global__ void child(int* out) { *out = 1; }
__global__ void parent(int* out) { child<<<1, 1>>>(out); }
