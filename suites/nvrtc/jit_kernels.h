// Self-contained kernels compiled at run time (the NVRTC suite's protocol, README.md):
//   - each file of kernels/ is compiled on its own with NVRTC for the device under test (-arch=sm_XY), its source
//     embedded in the binary at build time, so the binary needs no source tree;
//   - its kernels are extern "C" __global__ functions, launched by name through the driver API;
//   - their parameters are plain values and device pointers, their results land in buffers the rule checks against
//     a host model.
#pragma once

#include <cuda_runtime.h>

#include <string>
#include <string_view>
#include <vector>

#include "driver_api.h"

namespace cuconform::nvrtc {

// The embedded source of kernels/<file>; throws std::invalid_argument for an unknown file.
const std::string& kernel_source(std::string_view file);
std::vector<std::string> kernel_files();

class JitModule {
 public:
  // Compiles kernels/<file> for the current device and loads it. Throws std::runtime_error with the NVRTC log when
  // the source does not compile, CudaError when the driver cannot load it.
  explicit JitModule(std::string_view file);

  // Launches kernel `name` and waits for it; throws CudaError naming the failed step.
  template <class... Args>
  void launch(const char* name, dim3 grid, dim3 block, Args... args) {
    void* arguments[] = {static_cast<void*>(&args)..., nullptr};
    launch_with(name, grid, block, arguments);
  }

  const std::string& file() const { return file_; }

 private:
  void launch_with(const char* name, dim3 grid, dim3 block, void** arguments);

  std::string file_;
  CUmodule module_ = nullptr;
};

// One module per file and process: NVRTC compiles each file once.
JitModule& jit_module(std::string_view file);

}  // namespace cuconform::nvrtc
