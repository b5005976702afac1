// rule: ExecutionSpace.HostDevicePathsSplitByCudaArch
// section: 5.4.1.1
// statement: in a __host__ __device__ function, __CUDA_ARCH__ is defined on the device path and not on the host path
__host__ __device__ constexpr bool on_device() {
#if defined(__CUDA_ARCH__)
  return true;
#else
  return false;
#endif
}

__global__ void kernel(bool* out) {
#if defined(__CUDA_ARCH__)
  static_assert(on_device(), "the device compilation takes the __CUDA_ARCH__ path");
#endif
  *out = on_device();
}

#if !defined(__CUDA_ARCH__)
static_assert(!on_device(), "the host compilation takes the other path");
#endif
