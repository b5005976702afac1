// rule: MemorySpace.SymbolsAccessibleThroughRuntimeApi
// section: 5.4.1.2
// statement: __device__ and __constant__ variables are accessed from the host with cudaGetSymbolAddress,
//   cudaGetSymbolSize, cudaMemcpyToSymbol and cudaMemcpyFromSymbol
// skip.nvrtc: host code (NVRTC compiles device code only)
__device__ float device_var = 4.0f;
__constant__ float constant_var = 4.0f;

int main() {
  float* device_ptr = nullptr;
  cudaGetSymbolAddress((void**)&device_ptr, device_var);
  size_t size = 0;
  cudaGetSymbolSize(&size, constant_var);
  float host_var = 0.0f;
  cudaMemcpyFromSymbol(&host_var, device_var, sizeof host_var);
  cudaMemcpyToSymbol(constant_var, &host_var, sizeof host_var);
}
