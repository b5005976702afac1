// rule: DeviceRuntimeApi.OccupancyTemplatesCompileInDeviceCode
// section: PG12.9 13.3.1.8 Table 15
// statement: Table 15's occupancy functions are supported by the device runtime in their C++ forms too:
//   cudaOccupancyMaxActiveBlocksPerMultiprocessor with a kernel, cudaOccupancyMaxPotentialBlockSize and
//   cudaOccupancyMaxPotentialBlockSizeVariableSMem compile in a kernel
// flags.nvcc: -rdc=true
// flags.nvrtc: -rdc=true
// flags.clang: -fgpu-rdc
struct SharedBytesPerBlock {
  __host__ __device__ size_t operator()(int block_size) const { return block_size * sizeof(int); }
};

__global__ void target_kernel(int* out) {
  if (out) *out = 1;
}

__global__ void occupancy_queries(int* out) {
  int blocks = 0, min_grid = 0, block = 0, min_grid_variable = 0, block_variable = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, target_kernel, 128, 0);
  cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, target_kernel);
  cudaOccupancyMaxPotentialBlockSizeVariableSMem(&min_grid_variable, &block_variable, target_kernel,
                                                 SharedBytesPerBlock());
  *out = blocks + min_grid + block + min_grid_variable + block_variable;
}
