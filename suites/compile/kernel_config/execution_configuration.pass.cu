// rule: ExecutionConfiguration.FourArguments
// section: 5.4.3
// statement: the execution configuration is <<<grid_dim, block_dim, dynamic_smem_bytes, stream>>>, the last two
//   optional
// skip.nvrtc: host code (NVRTC compiles device code only)
__global__ void kernel(float* parameter) { parameter[threadIdx.x] = 0.0f; }

void launch(float* parameter, cudaStream_t stream) {
  dim3 grid_dim(4, 2), block_dim(32, 4);
  kernel<<<grid_dim, block_dim>>>(parameter);
  kernel<<<grid_dim, block_dim, 1024>>>(parameter);
  kernel<<<grid_dim, block_dim, 1024, stream>>>(parameter);
}
