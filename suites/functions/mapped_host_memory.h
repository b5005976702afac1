// Page-locked host memory that kernels write through its mapped device address. The host can still read it after a
// fault (__trap, a failed assert) has corrupted the CUDA context, when no device memory can be copied back any more.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstring>

#include "cuconform/check.h"

namespace cuconform_functions {

template <class T>
class MappedHostArray {
 public:
  explicit MappedHostArray(std::size_t count) {
    CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&host_), count * sizeof(T), cudaHostAllocMapped));
    std::memset(static_cast<void*>(host_), 0, count * sizeof(T));
    CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_), host_, 0));
  }
  MappedHostArray(const MappedHostArray&) = delete;
  MappedHostArray& operator=(const MappedHostArray&) = delete;
  // Freeing fails once the context is corrupted; the process ends soon after, so the error is ignored.
  ~MappedHostArray() { (void)cudaFreeHost(host_); }

  T* device() const { return device_; }
  T operator[](std::size_t i) const { return static_cast<const volatile T*>(host_)[i]; }

 private:
  T* host_ = nullptr;
  T* device_ = nullptr;
};

}  // namespace cuconform_functions
