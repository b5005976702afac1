// RAII device memory. Failures throw cuconform::CudaError, which GoogleTest reports as a test failure.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "cuconform/check.h"

namespace cuconform {

// Runs `issue(stream)` on a non-blocking stream of its own and waits until it completed, so that what it wrote is in
// place for work on any stream. cudaMemset() and a cudaMemcpy() from pageable memory may return before the device
// memory is written (CUDA Runtime API, "API synchronization behavior"), and they run on the NULL stream, which the
// streams created with cudaStreamNonBlocking do not wait for (PG12.9 6.2.8.5.4): a kernel launched into one of them
// next could run before the zeros or the copy land. A stream of its own, rather than a synchronization of the NULL
// stream, so that a buffer made while a kernel waits for the host on a blocking stream does not wait for that kernel.
template <class Issue>
void complete_on_a_stream_of_its_own(Issue issue, const char* what, const char* file, int line) {
  cudaStream_t stream = nullptr;
  throw_if_failed(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags", file, line);
  cudaError_t error = issue(stream);
  if (error == cudaSuccess) error = cudaStreamSynchronize(stream);
  cudaStreamDestroy(stream);
  throw_if_failed(error, what, file, line);
}

template <class T>
class DeviceBuffer {
 public:
  // `count` elements, every byte zero by the time the constructor returns.
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    CUDA_CHECK(cudaMalloc(&data_, bytes()));
    complete_on_a_stream_of_its_own([this](cudaStream_t stream) { return cudaMemsetAsync(data_, 0, bytes(), stream); },
                                    "cudaMemsetAsync(data_, 0, bytes(), stream)", __FILE__, __LINE__);
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
    complete_on_a_stream_of_its_own(
        [&](cudaStream_t stream) {
          return cudaMemcpyAsync(data_, host.data(), bytes(), cudaMemcpyHostToDevice, stream);
        },
        "cudaMemcpyAsync(data_, host.data(), bytes(), cudaMemcpyHostToDevice, stream)", __FILE__, __LINE__);
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
