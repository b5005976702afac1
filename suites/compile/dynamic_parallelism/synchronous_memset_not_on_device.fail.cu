// rule: DeviceRuntimeApi.OnlyAsyncMemsetIsSupported
// section: PG12.9 13.3.1.8 Table 15
// statement: only the async memset functions are supported by the device runtime: cudaMemset() in a kernel does not
//   compile
// flags.nvcc: -rdc=true
// flags.nvrtc: -rdc=true
// flags.clang: -fgpu-rdc
// error: error: identifier "cudaMemset" is undefined
// error.clang: error: no matching function for call to 'cudaMemset'
__global__ void clear(int* dst) { cudaMemset(dst, 0, sizeof(int)); }
