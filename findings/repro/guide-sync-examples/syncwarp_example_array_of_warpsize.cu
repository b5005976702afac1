// Reproducer for a defect in the CUDA Programming Guide, 5.4.4.2 (example_syncwarp) and 5.4.6.6
// (example_syncwarp_with_mask, example_syncwarp_with_mask_branches): each declares
//
//     __shared__ int shared_data[warpSize];
//
// but warpSize is "a run-time value" (5.4.2.2), not a constant expression. nvcc 13.0 rejects the declaration:
//
//   nvcc -arch=sm_90 -c syncwarp_example_array_of_warpsize.cu
//   error: a variable length array cannot have static storage duration
//
// clang++ 22 accepts it (its CUDA headers declare warpSize as `const int warpSize = 32`).
__global__ void example_shape(const int* input_data, int* output_data) {
  if (threadIdx.x < warpSize) {
    __shared__ int shared_data[warpSize];
    shared_data[threadIdx.x] = input_data[threadIdx.x];
    __syncwarp();
    if (threadIdx.x == 0) output_data[0] = shared_data[1];
  }
}
