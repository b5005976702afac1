// Reproducer for a defect in the CUDA Programming Guide, 5.4.4.1, example "syncthreads_valid_behavior":
// with 128 threads and `__shared__ int shared_data[128]`, it reads shared_data[128 - threadIdx.x], so thread 0 reads
// shared_data[128], one element past the end. Not part of the suite (the suite must stay clean under
// compute-sanitizer); build and run it by hand:
//
//   nvcc -arch=sm_90 -o oob syncthreads_example_reads_out_of_bounds.cu && ./oob
//   compute-sanitizer --tool memcheck ./oob      # expected: an invalid __shared__ read by thread (0,0,0) of block 1
//
// The kernel below has the example's shape (a 128-element shared array, 128 threads, the branch on blockIdx.x > 0,
// the read at 128 - threadIdx.x); it also records each index it reads, so the defect shows without a sanitizer.
#include <cstdio>

constexpr int kThreads = 128;

__global__ void example_shape(const int* input_data, int* output_data, int* index_read) {
  __shared__ int shared_data[kThreads];
  shared_data[threadIdx.x] = input_data[threadIdx.x];
  if (blockIdx.x > 0) {
    __syncthreads();
    const int index = kThreads - threadIdx.x;  // the example's index expression
    index_read[threadIdx.x] = index;
    output_data[threadIdx.x] = shared_data[index];  // out of bounds for threadIdx.x == 0
  }
}

int main() {
  int *input, *output, *index_read;
  cudaMalloc(&input, kThreads * sizeof(int));
  cudaMalloc(&output, kThreads * sizeof(int));
  cudaMalloc(&index_read, kThreads * sizeof(int));
  cudaMemset(input, 0, kThreads * sizeof(int));
  example_shape<<<2, kThreads>>>(input, output, index_read);
  const cudaError_t status = cudaDeviceSynchronize();
  int indices[kThreads];
  cudaMemcpy(indices, index_read, sizeof indices, cudaMemcpyDeviceToHost);
  int out_of_bounds = 0;
  for (int t = 0; t < kThreads; ++t) {
    if (indices[t] < 0 || indices[t] >= kThreads) {
      std::printf("thread %d reads shared_data[%d] of a %d-element array\n", t, indices[t], kThreads);
      ++out_of_bounds;
    }
  }
  std::printf("%d out-of-bounds read(s); kernel status: %s\n", out_of_bounds, cudaGetErrorString(status));
  return out_of_bounds == 0 ? 0 : 1;
}
