// Launch a kernel, check the launch, wait for it and check its completion: one call in a test body.
// Include from .cu files only.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "cuconform/check.h"

namespace cuconform {

struct Shape {
  dim3 grid;
  dim3 block;
  std::size_t dynamic_shared_bytes = 0;
};

// Throws cuconform::CudaError naming the failed step.
template <class... Params, class... Args>
void launch(void (*kernel)(Params...), Shape shape, Args&&... args) {
  kernel<<<shape.grid, shape.block, shape.dynamic_shared_bytes>>>(std::forward<Args>(args)...);
  CUDA_CHECK(cudaPeekAtLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

template <class... Params, class... Args>
void launch(void (*kernel)(Params...), dim3 grid, dim3 block, Args&&... args) {
  launch(kernel, Shape{grid, block}, std::forward<Args>(args)...);
}

// For rules about launches that must fail: the launch's own error, then (if it launched) the completion's.
// Clears the non-sticky error it returns, so the next launch starts clean.
template <class... Params, class... Args>
cudaError_t try_launch(void (*kernel)(Params...), Shape shape, Args&&... args) {
  kernel<<<shape.grid, shape.block, shape.dynamic_shared_bytes>>>(std::forward<Args>(args)...);
  cudaError_t error = cudaGetLastError();
  if (error == cudaSuccess) error = cudaDeviceSynchronize();
  return error;
}

// One thread per element: the grid that covers `count` threads with blocks of `block` threads.
inline dim3 blocks_for(std::size_t count, unsigned block) {
  return dim3(static_cast<unsigned>((count + block - 1) / block));
}

}  // namespace cuconform
