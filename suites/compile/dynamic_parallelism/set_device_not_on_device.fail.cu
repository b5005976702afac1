// rule: DeviceRuntimeApi.NoSetDeviceOnDevice
// section: PG12.9 13.3.1.5
// statement: only the device a kernel runs on is controllable from it: cudaSetDevice() is not supported by the device
//   runtime (13.2.1.6: no multi-GPU support)
// flags.nvcc: -rdc=true
// flags.nvrtc: -rdc=true
// flags.clang: -fgpu-rdc
// error: error: identifier "cudaSetDevice" is undefined
// error.clang: error: no matching function for call to 'cudaSetDevice'
__global__ void switch_device(int* out) { *out = cudaSetDevice(0); }
