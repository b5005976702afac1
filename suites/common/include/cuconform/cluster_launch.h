// Launching with thread block clusters (PG12.9 5.2.1): one call in a test body. Include from .cu files only.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace cuconform {

// cudaLaunchKernelEx with a cluster dimension, then synchronize; the launch's error, else the completion's. A launch
// error is cleared so that the next launch starts clean.
template <class... Params, class... Args>
cudaError_t launch_with_clusters(void (*kernel)(Params...), dim3 grid, dim3 block, dim3 cluster,
                                 std::size_t dynamic_shared_bytes, Args... args) {
  cudaLaunchConfig_t config = {};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = dynamic_shared_bytes;
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeClusterDimension;
  attribute[0].val.clusterDim.x = cluster.x;
  attribute[0].val.clusterDim.y = cluster.y;
  attribute[0].val.clusterDim.z = cluster.z;
  config.attrs = attribute;
  config.numAttrs = 1;
  cudaError_t error = cudaLaunchKernelEx(&config, kernel, args...);
  if (error != cudaSuccess) {
    (void)cudaGetLastError();
    return error;
  }
  return cudaDeviceSynchronize();
}

}  // namespace cuconform
