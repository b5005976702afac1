// rule: DeviceRuntimeApi.OnlyAsyncMemcpyIsSupported
// section: PG12.9 13.3.1.8 Table 15
// statement: only the async memcpy functions are supported by the device runtime: cudaMemcpy() in a kernel does not
//   compile
// flags.nvcc: -rdc=true
// flags.nvrtc: -rdc=true
// flags.clang: -fgpu-rdc
// error: error: identifier "cudaMemcpy" is undefined
// error.clang: error: no matching function for call to 'cudaMemcpy'
__global__ void copy(int* dst, const int* src) { cudaMemcpy(dst, src, sizeof(int), cudaMemcpyDeviceToDevice); }
