// rule: DeviceRuntimeApi.NoEventSynchronizeElapsedTimeOrQueryOnDevice
// section: PG12.9 13.3.1.3
// statement: only the inter-stream synchronization of events is supported on the device: cudaEventSynchronize(),
//   cudaEventElapsedTime() and cudaEventQuery() are not
// flags.nvcc: -rdc=true
// flags.nvrtc: -rdc=true
// flags.clang: -fgpu-rdc
// error: (?s)error: identifier "cudaEventSynchronize" is undefined.*error: identifier "cudaEventElapsedTime" is
//   undefined.*identifier "cudaEventQuery" is undefined
// error.clang: (?s)no matching function for call to 'cudaEventSynchronize'.*no matching function for call to
//   'cudaEventElapsedTime'.*no matching function for call to 'cudaEventQuery'
__global__ void use_events(int* out) {
  cudaEvent_t first, second;
  cudaEventCreateWithFlags(&first, cudaEventDisableTiming);
  cudaEventCreateWithFlags(&second, cudaEventDisableTiming);
  float milliseconds = 0;
  cudaEventSynchronize(first);
  cudaEventElapsedTime(&milliseconds, first, second);
  *out = cudaEventQuery(second);
}
