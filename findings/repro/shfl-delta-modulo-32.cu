// PG 5.4.6.5 (and PG12.9 10.22.2): __shfl_up_sync / __shfl_down_sync compute the source lane as the caller's lane
// minus / plus delta; "The source lane index will not wrap around the value of width, so the lower delta lanes will
// remain unchanged" (down: "the upper delta lanes will remain unchanged"). The guide bounds neither delta nor says it
// is reduced, so with width 32 and delta = 33 every source lies outside the warp and every lane keeps its value.
// Observed on H100: delta 33 acts as delta 1 (only delta's low 5 bits count, as the PTX ISA's shfl.sync takes
// b[4:0]). Every lane of one complete warp calls with the full mask, so any lane read takes part in the call.
// Exit: 1 the disagreement reproduces, 0 every lane kept its value, 2 error.
#include <cstdio>

__global__ void shift_by(unsigned delta, int* down, int* up) {
  const int lane = threadIdx.x;  // one warp of a 1-D block: lane = threadIdx.x
  down[lane] = __shfl_down_sync(0xFFFFFFFFu, 100 + lane, delta);
  up[lane] = __shfl_up_sync(0xFFFFFFFFu, 100 + lane, delta);
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device\n");
    return 2;
  }
  int *down = nullptr, *up = nullptr;
  if (cudaMallocManaged(&down, 32 * sizeof(int)) != cudaSuccess ||
      cudaMallocManaged(&up, 32 * sizeof(int)) != cudaSuccess) {
    std::printf("cudaMallocManaged failed\n");
    return 2;
  }
  const unsigned delta = 33;  // a run-time operand, as a program would pass it
  shift_by<<<1, 32>>>(delta, down, up);
  const cudaError_t error = cudaDeviceSynchronize();
  if (error != cudaSuccess) {
    std::printf("kernel failed: %s\n", cudaGetErrorString(error));
    return 2;
  }
  int changed = 0;
  for (int lane = 0; lane < 32; ++lane) changed += (down[lane] != 100 + lane) + (up[lane] != 100 + lane);
  std::printf("__shfl_down_sync / __shfl_up_sync(0xFFFFFFFF, 100 + lane, delta = %u), width 32\n", delta);
  std::printf("documented: every lane keeps its value (lane 0 down: 100, lane 31 up: 131)\n");
  std::printf("observed:   lane 0 down: %d, lane 31 up: %d; %d of 64 results are another lane's value\n", down[0],
              up[31], changed);
  return changed ? 1 : 0;
}
