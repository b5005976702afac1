// rule: ClusterDims.RuntimeDimensionsWithLaunchKernelEx
// section: 5.4.3.1
// statement: cluster dimensions may be given at run time to cudaLaunchKernelEx through a cudaLaunchConfig_t with a
//   cudaLaunchAttributeClusterDimension attribute
// skip.nvrtc: host code (NVRTC compiles device code only)
__global__ void kernel(float parameter1, int parameter2) {}

int main() {
  cudaLaunchConfig_t config = {0};
  config.gridDim = dim3{4};
  config.blockDim = dim3{32};
  config.dynamicSmemBytes = 1024;
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeClusterDimension;
  attribute[0].val.clusterDim.x = 2;
  attribute[0].val.clusterDim.y = 1;
  attribute[0].val.clusterDim.z = 1;
  config.attrs = attribute;
  config.numAttrs = 1;
  float parameter1 = 3.0f;
  int parameter2 = 4;
  cudaLaunchKernelEx(&config, kernel, parameter1, parameter2);
}
