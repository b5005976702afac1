// nvcc-flags: -rdc=true -lcudadevrt
// PG12.9 13.3.2.1.2: "the parameter buffer returned by cudaGetParameterBuffer() is always guaranteed to be 64-byte
// aligned, and the alignment requirement parameter is ignored". Asks for 64-byte alignment anyway, 8 times.
// Exit: 1 a buffer not 64-byte aligned (the disagreement), 0 all aligned, 2 error.
#include <cstdio>

__global__ void child(int* out) { *out = 1; }

// Each call takes a buffer and launches the child with it (a taken buffer must be launched).
__global__ void take_buffers(int* out, unsigned long long* residues, int count) {
  for (int i = 0; i < count; ++i) {
    void* buffer = cudaGetParameterBuffer(64, sizeof(int*));
    residues[i] = buffer ? reinterpret_cast<unsigned long long>(buffer) % 64 : ~0ull;
    if (!buffer) return;
    *static_cast<int**>(buffer) = out;
    cudaLaunchDevice(reinterpret_cast<void*>(child), buffer, dim3(1), dim3(1), 0, 0);
  }
}

int main() {
  constexpr int kCount = 8;
  int* out = nullptr;
  unsigned long long* residues = nullptr;
  if (cudaMalloc(&out, sizeof(int)) != cudaSuccess ||
      cudaMalloc(&residues, kCount * sizeof(unsigned long long)) != cudaSuccess) {
    std::printf("no usable GPU\n");
    return 2;
  }
  take_buffers<<<1, 1>>>(out, residues, kCount);
  if (cudaDeviceSynchronize() != cudaSuccess) return 2;
  unsigned long long host[kCount] = {};
  cudaMemcpy(host, residues, sizeof(host), cudaMemcpyDeviceToHost);
  std::printf("documented: every address modulo 64 is 0\nobserved:  ");
  int misaligned = 0;
  for (int i = 0; i < kCount; ++i) {
    if (host[i] == ~0ull) {
      std::printf(" (null)\n");
      return 2;
    }
    std::printf(" %llu", host[i]);
    if (host[i] != 0) ++misaligned;
  }
  std::printf("\n");
  return misaligned ? 1 : 0;
}
