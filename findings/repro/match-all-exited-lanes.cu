// PG 5.4.6.3: __match_all_sync "Returns mask if all non-exited threads in mask have the same bitwise value;
// otherwise 0 is returned." PG 5.4.6.6 allows a mask that names exited threads ("Each non-calling thread must have
// its corresponding bit set to zero in the mask. Exited threads are ignored."; its valid example returns lane 0 and
// calls __all_sync(0xFFFFFFFF, pred) with the rest: "CORRECT, all non-exited threads participate in the call").
// Observed on H100: the returned mask lacks the bits of the exited threads (what the PTX ISA's match.sync.all
// describes: the mask of the non-exited threads in membermask).
// Exit: 1 the disagreement reproduces, 0 every caller got mask itself, 2 error.
#include <cstdio>

__global__ void match_all_after_exits(unsigned* result, int* pred) {
  const unsigned lane = threadIdx.x;  // one warp of a 1-D block
  result[lane] = 0;
  pred[lane] = -1;
  if (lane == 0 || lane == 5) return;  // exited threads, named in the mask below
  int equal = -1;
  result[lane] = __match_all_sync(0xFFFFFFFFu, 42, &equal);
  pred[lane] = equal;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device\n");
    return 2;
  }
  unsigned* result = nullptr;
  int* pred = nullptr;
  if (cudaMallocManaged(&result, 32 * sizeof(unsigned)) != cudaSuccess ||
      cudaMallocManaged(&pred, 32 * sizeof(int)) != cudaSuccess) {
    std::printf("cudaMallocManaged failed\n");
    return 2;
  }
  match_all_after_exits<<<1, 32>>>(result, pred);
  const cudaError_t error = cudaDeviceSynchronize();
  if (error != cudaSuccess) {
    std::printf("kernel failed: %s\n", cudaGetErrorString(error));
    return 2;
  }
  int differing = 0;
  for (int lane = 0; lane < 32; ++lane) {
    if (lane != 0 && lane != 5) differing += result[lane] != 0xFFFFFFFFu;
  }
  std::printf("lanes 0 and 5 return; lanes 1-4, 6-31 call __match_all_sync(0xFFFFFFFF, 42, &pred)\n");
  std::printf("documented: 0xffffffff (mask) in every caller, pred 1\n");
  std::printf("observed:   lane 1: 0x%08x, pred %d; %d of 30 callers did not get mask\n", result[1], pred[1],
              differing);
  return differing ? 1 : 0;
}
