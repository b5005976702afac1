// nvcc-flags: -rdc=true -lcudadevrt
// PG12.9 13.3.1.8: the device runtime supports cudaRuntimeGetVersion (Table 15), and "semantics are the same" as the
// host runtime's, which returns the version of the CUDA runtime (1000 * major + 10 * minor). Compares the version a
// kernel reads with the host's.
// Exit: 1 the two differ (the disagreement), 0 they agree, 2 error.
#include <cstdio>

__global__ void version_on_device(int* version, int* error) { *error = cudaRuntimeGetVersion(version); }

int main() {
  int host = 0, *device = nullptr;
  if (cudaRuntimeGetVersion(&host) != cudaSuccess || cudaMalloc(&device, 2 * sizeof(int)) != cudaSuccess) {
    std::printf("no usable GPU\n");
    return 2;
  }
  version_on_device<<<1, 1>>>(device, device + 1);
  int seen[2] = {-1, -1};
  if (cudaDeviceSynchronize() != cudaSuccess ||
      cudaMemcpy(seen, device, sizeof(seen), cudaMemcpyDeviceToHost) != cudaSuccess)
    return 2;
  std::printf("host cudaRuntimeGetVersion: %d; in a kernel: %d (error %d)\n", host, seen[0], seen[1]);
  return seen[1] == 0 && seen[0] == host ? 0 : 1;
}
