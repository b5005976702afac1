// nvcc-flags: -rdc=true -lcudadevrt
// PG12.9 13.3.1.8 Table 15 lists cudaMemsetAsync, cudaMemset2DAsync and cudaMemset3DAsync among the device runtime's
// functions, "semantics are the same" as the host's: set count bytes to value. Sets 16 bytes from a kernel, with
// several values, and prints what each byte became.
// Exit: 1 a byte not set to the value (the disagreement), 0 every byte set, 2 error.
#include <cstdio>

__global__ void set_on_device(unsigned char* to, int value, size_t count, int* error) {
  *error = cudaMemsetAsync(to, value, count, 0);
}

int main() {
  constexpr size_t kBytes = 16;
  unsigned char* to = nullptr;
  int* error = nullptr;
  if (cudaMalloc(&to, kBytes) != cudaSuccess || cudaMalloc(&error, sizeof(int)) != cudaSuccess) {
    std::printf("no usable GPU\n");
    return 2;
  }
  int status = 0;
  for (int value : {0x5A, 0xFF, 0x01, 0x3C}) {
    if (cudaMemset(to, 0xEE, kBytes) != cudaSuccess) return 2;
    set_on_device<<<1, 1>>>(to, value, kBytes, error);
    if (cudaDeviceSynchronize() != cudaSuccess) return 2;
    unsigned char bytes[kBytes];
    int call_error = -1;
    if (cudaMemcpy(bytes, to, kBytes, cudaMemcpyDeviceToHost) != cudaSuccess ||
        cudaMemcpy(&call_error, error, sizeof(int), cudaMemcpyDeviceToHost) != cudaSuccess)
      return 2;
    std::printf("value 0x%02X: cudaMemsetAsync in the kernel returned %d; bytes:", value, call_error);
    for (unsigned char byte : bytes) std::printf(" %02X", byte);
    std::printf("\n");
    for (unsigned char byte : bytes)
      if (byte != value) status = 1;
  }
  return status;
}
