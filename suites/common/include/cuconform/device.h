// The device a run tests: device 0 of those visible (the harness gives each worker one GPU).
#pragma once

#include <cuda_runtime.h>

#include <string>

namespace cuconform {

struct Device {
  bool available = false;
  std::string error;  // why no device is available
  int ordinal = 0;
  int count = 0;  // visible devices
  cudaDeviceProp properties{};

  int cc() const { return properties.major * 10 + properties.minor; }  // 90 for 9.0
  std::string cc_name() const;                                         // "sm_90"
  std::string describe() const;                                        // "NVIDIA H100 80GB HBM3 (CC 9.0)"
};

// Queried once; creates no context.
const Device& device();

// Set by GpuTest::SetUp: a test in this process has used the GPU.
void note_gpu_used();
bool gpu_used();

}  // namespace cuconform
