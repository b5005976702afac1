// PG 5.4.6.6: "Each bit in the mask corresponds to a thread's lane ID (threadIdx.x % warpSize)." Warps are formed
// from linear thread IDs x + y Dx + z Dx Dy (PG12.9 5.2 "Thread Hierarchy", 7.1 "each warp contains threads of
// consecutive, increasing thread IDs with the first warp containing thread 0"; PG 2.2.2), so in a block of 8 x 4
// threads the one warp holds four threads with each threadIdx.x: the two statements cannot both hold.
// This ballots with the full mask (valid however lanes are numbered) and a predicate true only for thread (0, 1).
// By 5.4.6.6's wording its bit is threadIdx.x % 32 = 0 (0x1); by its linear ID 8 it is 0x100.
// Exit: 1 the bit is not threadIdx.x % warpSize (the documentation contradicts itself), 0 it is, 2 error.
#include <cstdio>

__global__ void ballot_of_thread_0_1(unsigned* ballot) {
  const unsigned b = __ballot_sync(0xFFFFFFFFu, threadIdx.x == 0 && threadIdx.y == 1);
  if (threadIdx.x == 0 && threadIdx.y == 0) *ballot = b;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device\n");
    return 2;
  }
  unsigned* ballot = nullptr;
  if (cudaMallocManaged(&ballot, sizeof(unsigned)) != cudaSuccess) {
    std::printf("cudaMallocManaged failed\n");
    return 2;
  }
  ballot_of_thread_0_1<<<1, dim3(8, 4)>>>(ballot);
  const cudaError_t error = cudaDeviceSynchronize();
  if (error != cudaSuccess) {
    std::printf("kernel failed: %s\n", cudaGetErrorString(error));
    return 2;
  }
  std::printf("block (8, 4), __ballot_sync(0xFFFFFFFF, threadIdx == (0, 1))\n");
  std::printf("documented (5.4.6.6, lane = threadIdx.x %% warpSize = 0): 0x00000001\n");
  std::printf("observed:                                                0x%08x (linear thread ID 8 -> 0x00000100)\n",
              *ballot);
  return *ballot != 0x1u ? 1 : 0;
}
