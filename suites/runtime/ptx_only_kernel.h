// A kernel embedded as compute_80 PTX only, without binary code (ptx_only_kernel.cu, built as its own object
// library, see CMakeLists.txt): whatever the build's targets, the driver can run it only by JIT-compiling its PTX.
// The control of the JIT rules of PG12.9 22 (CUDA_DISABLE_PTX_JIT, CUDA_DISABLE_JIT): "if a kernel does not have
// embedded binary code ... it will fail to load".
#pragma once

#include <cuda_runtime.h>

namespace cuconform::runtime {

// Launches the PTX-only kernel, which sets values[i] = 3 * values[i] + 1 for i < count, and returns the launch's
// cudaGetLastError(). Defined where CUCONFORM_PTX_ONLY_KERNEL is (nvcc builds: clang embeds
// binary code for every --cuda-gpu-arch).
cudaError_t launch_ptx_only_triple_plus_one(int* values, int count);

}  // namespace cuconform::runtime
