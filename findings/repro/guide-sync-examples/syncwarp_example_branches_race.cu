// Reproducer for a defect in the CUDA Programming Guide, 5.4.6.6, example "example_syncwarp_with_mask_branches",
// which the guide marks CORRECT: threads 16-31 synchronize with __syncwarp(0xFFFF0000) and then read
// shared_data[31 - threadIdx.x], i.e. elements 15..0, written by threads 0-15. Nothing orders those writes before
// those reads (the two masks are disjoint), so the example has a data race on shared memory. Reading
// shared_data[47 - threadIdx.x] (elements 31..16) would stay within the upper half. Not part of the suite; run:
//
//   nvcc -arch=sm_90 -o race syncwarp_example_branches_race.cu && compute-sanitizer --tool racecheck ./race
//
// Expected: racecheck reports a read-after-write hazard between the writes of threads 0-15 and the reads of threads
// 16-31. The array has a constant size here (the guide's warpSize-sized array does not compile with nvcc 13.0, see
// syncwarp_example_array_of_warpsize.cu).
#include <cstdio>

constexpr int kLanes = 32;

__global__ void example_shape(const int* input_data, int* output_data) {
  if (threadIdx.x < kLanes) {
    __shared__ int shared_data[kLanes];
    shared_data[threadIdx.x] = input_data[threadIdx.x];
    if (threadIdx.x < 16) {
      unsigned mask = 0xFFFF;
      __syncwarp(mask);
      output_data[threadIdx.x] = shared_data[15 - threadIdx.x];
    } else {
      unsigned mask = 0xFFFF0000;
      __syncwarp(mask);
      output_data[threadIdx.x] = shared_data[31 - threadIdx.x];  // elements 15..0: the other half's writes
    }
  }
}

int main() {
  int *input, *output;
  cudaMalloc(&input, kLanes * sizeof(int));
  cudaMalloc(&output, kLanes * sizeof(int));
  cudaMemset(input, 0, kLanes * sizeof(int));
  example_shape<<<1, kLanes>>>(input, output);
  std::printf("kernel status: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
