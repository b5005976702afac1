// The host and the device adding to one int at the same time (5.4.5.1's example, and system scope in general).
// Include from .cu files only.
#pragma once

#include <cuconform/cuconform.h>

#include <vector>

#include "history.h"

namespace atomics {

// Launches kernel<<<blocks, threads>>>(counter, olds, adds_per_thread), whose threads each add 10 to *counter
// adds_per_thread times and record the values the adds returned, and meanwhile adds 10 as often from the host with
// __sync_fetch_and_add. EXPECTs that the values returned on both sides are 0, 10, 20, ... once each and that the
// counter ends at 10 per add. `counter` must be usable from both sides (managed or mapped host memory).
template <class Kernel>
void expect_host_and_device_adds_atomic(Kernel kernel, int* counter) {
  const unsigned blocks = cuconform::full_profile() ? 32 : 4, threads = 64, per_thread = 4;
  const unsigned device_adds = blocks * threads * per_thread, host_adds = device_adds;
  *counter = 0;
  cuconform::DeviceBuffer<int> device_olds(device_adds);
  kernel<<<blocks, threads>>>(counter, device_olds.get(), per_thread);
  CUDA_CHECK(cudaPeekAtLastError());
  std::vector<int> olds;
  olds.reserve(device_adds + host_adds);
  for (unsigned k = 0; k < host_adds; ++k) olds.push_back(__sync_fetch_and_add(counter, 10));
  CUDA_CHECK(cudaDeviceSynchronize());

  // How often the host saw the device's adds land between two of its own: evidence the two sides overlapped.
  long long interleavings = 0;
  for (std::size_t k = 1; k < olds.size(); ++k) interleavings += olds[k] != olds[k - 1] + 10;
  cuconform::record_metric("host_adds_interleaved_with_device_adds", interleavings);

  const std::vector<int> from_device = device_olds.to_host();
  olds.insert(olds.end(), from_device.begin(), from_device.end());
  std::vector<int> expected(device_adds + host_adds);
  for (std::size_t k = 0; k < expected.size(); ++k) expected[k] = int(10 * k);
  EXPECT_TRUE(
      SameValues(erase(olds), erase(expected), semantics_of<int, int>([](int old, int val) { return old + val; })));
  EXPECT_EQ(*counter, int(10 * expected.size()));
}

// An int in managed memory, or in mapped page-locked host memory.
class SharedInt {
 public:
  enum class Kind { Managed, MappedHost };
  explicit SharedInt(Kind kind) : kind_(kind) {
    if (kind == Kind::Managed) {
      CUDA_CHECK(cudaMallocManaged(&p_, sizeof(int)));
    } else {
      CUDA_CHECK(cudaHostAlloc(&p_, sizeof(int), cudaHostAllocMapped));
    }
  }
  SharedInt(const SharedInt&) = delete;
  SharedInt& operator=(const SharedInt&) = delete;
  ~SharedInt() { kind_ == Kind::Managed ? cudaFree(p_) : cudaFreeHost(p_); }
  int* get() const { return p_; }

 private:
  Kind kind_;
  int* p_ = nullptr;
};

}  // namespace atomics
