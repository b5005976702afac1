// RAII device memory. Failures throw cuconform::CudaError, which GoogleTest reports as a test failure.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "cuconform/check.h"

namespace cuconform {

template <class T>
class DeviceBuffer {
 public:
  // `count` elements, every byte zero.
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    CUDA_CHECK(cudaMalloc(&data_, bytes()));
    CUDA_CHECK(cudaMemset(data_, 0, bytes()));
  }
  explicit DeviceBuffer(const std::vector<T>& host) : count_(host.size()) {
    CUDA_CHECK(cudaMalloc(&data_, bytes()));
    copy_from(host);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  ~DeviceBuffer() { cudaFree(data_); }

  T* get() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

  void copy_from(const std::vector<T>& host) {
    if (host.size() != count_) throw std::invalid_argument("DeviceBuffer::copy_from: size mismatch");
    CUDA_CHECK(cudaMemcpy(data_, host.data(), bytes(), cudaMemcpyHostToDevice));
  }
  std::vector<T> to_host() const { return to_host(count_); }
  // The first `count` elements (at most all of them).
  std::vector<T> to_host(std::size_t count) const {
    std::vector<T> host(count < count_ ? count : count_);
    CUDA_CHECK(cudaMemcpy(host.data(), data_, host.size() * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }
  T value_at(std::size_t index) const {
    T value;
    CUDA_CHECK(cudaMemcpy(&value, data_ + index, sizeof(T), cudaMemcpyDeviceToHost));
    return value;
  }

 private:
  T* data_ = nullptr;
  std::size_t count_;
};

}  // namespace cuconform
