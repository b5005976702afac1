// A kernel that waits for the host, for rules about what the host can do while a kernel runs (stream and event
// queries, CUDA_LAUNCH_BLOCKING). One thread spins on a flag in mapped page-locked memory until the host sets it or
// until `timeout_ms` of %globaltimer time have passed, and records which came first: nothing hangs, and a launch
// that did not return before the kernel ended shows as a kernel that never saw the flag. Having seen the flag, the
// kernel runs on for 10 ms before it records so: a synchronization that returned early reads "not recorded yet".
#pragma once

#include <cuda_runtime.h>

namespace cuconform::runtime {

class HostFlag {
 public:
  HostFlag();
  ~HostFlag();
  HostFlag(const HostFlag&) = delete;
  HostFlag& operator=(const HostFlag&) = delete;

  // Launches the waiting kernel in `stream` and returns the launch's cudaGetLastError().
  cudaError_t launch_waiter(cudaStream_t stream, unsigned timeout_ms);
  void set();
  // After the kernel finished: 1 when it saw the flag, 0 when it gave up waiting; -1 while it runs.
  int kernel_saw_flag() const;

 private:
  int* host_ = nullptr;  // [0]: the flag; [1]: what the kernel saw
};

}  // namespace cuconform::runtime
