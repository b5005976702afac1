// PG 5.4.6.5, "Examples of valid warp shuffle usage":
//     // lanes [0 - 15] get 'data' from lane 0
//     // lanes [16 - 31] get 'data' from lane 16
//     int result3 = __shfl_sync(0xFFFFFFFF, value, warpSize / 2);
// The same section defines __shfl_sync as returning "the value of value held by the thread whose ID is given by
// srcLane", width defaulting to warpSize: srcLane = 16 gives all 32 lanes lane 16's value. The comment describes
// __shfl_sync(0xFFFFFFFF, data, 0, warpSize / 2). (The snippet declares `data` and shuffles an undeclared `value`;
// this shuffles `data`, as the comment names it.)
// Exit: 1 lanes 0-15 do not get lane 0's data (the comment is wrong, the definition holds), 0 they do, 2 error.
#include <cstdio>

__global__ void example_result3(int* result) {
  const int laneId = threadIdx.x % warpSize;
  const int data = 100 + laneId;
  result[laneId] = __shfl_sync(0xFFFFFFFFu, data, warpSize / 2);
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device\n");
    return 2;
  }
  int* result = nullptr;
  if (cudaMallocManaged(&result, 32 * sizeof(int)) != cudaSuccess) {
    std::printf("cudaMallocManaged failed\n");
    return 2;
  }
  example_result3<<<1, 32>>>(result);
  const cudaError_t error = cudaDeviceSynchronize();
  if (error != cudaSuccess) {
    std::printf("kernel failed: %s\n", cudaGetErrorString(error));
    return 2;
  }
  int differing = 0;
  for (int lane = 0; lane < 32; ++lane) differing += result[lane] != (lane < 16 ? 100 : 116);
  std::printf("data = 100 + lane; result3 = __shfl_sync(0xFFFFFFFF, data, warpSize / 2)\n");
  std::printf("the example's comment: lanes 0-15 get 100 (lane 0), lanes 16-31 get 116 (lane 16)\n");
  std::printf("observed: lane 0 got %d, lane 15 got %d, lane 16 got %d; %d of 32 lanes differ from the comment\n",
              result[0], result[15], result[16], differing);
  return differing ? 1 : 0;
}
