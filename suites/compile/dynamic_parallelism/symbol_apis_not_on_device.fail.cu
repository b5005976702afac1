// rule: DeviceRuntimeApi.NoSymbolApisOnDevice
// section: PG12.9 13.3.1.6.4
// statement: runtime APIs that reference symbols (cudaMemcpyToSymbol(), cudaGetSymbolAddress()) are not supported by
//   the device runtime
// flags.nvcc: -rdc=true
// flags.nvrtc: -rdc=true
// flags.clang: -fgpu-rdc
// error: (?s)error: identifier "cudaMemcpyToSymbol(<int> )?" is undefined.*error: identifier
//   "cudaGetSymbolAddress(<int> )?" is undefined
// error.clang: (?s)no matching function for call to 'cudaMemcpyToSymbol'.*no matching function for call to
//   'cudaGetSymbolAddress'
__device__ int symbol;
__global__ void use_symbol(int* out) {
  int value = 1;
  cudaMemcpyToSymbol(symbol, &value, sizeof value);
  void* address = nullptr;
  cudaGetSymbolAddress(&address, symbol);
  *out = address != nullptr;
}
