#include "jit_kernels.h"

#include <map>
#include <memory>
#include <stdexcept>

#include "cuconform/check.h"
#include "cuconform/device.h"
#include "nvrtc_program.h"

namespace cuconform::nvrtc {
namespace {

struct EmbeddedKernel {
  const char* file;
  const char* source;
};

// Generated from kernels/*.cu by embed_kernels.cmake: { {"atomics.cu", R"...(...)..."}, ... }
constexpr EmbeddedKernel kEmbedded[] = {
#include "nvrtc_kernels.inc"
};

void check(CUresult result, const std::string& what) {
  if (result != CUDA_SUCCESS) throw CudaError(cudaErrorUnknown, what + ": " + describe(result));
}

}  // namespace

const std::string& kernel_source(std::string_view file) {
  static const std::map<std::string, std::string, std::less<>> sources = [] {
    std::map<std::string, std::string, std::less<>> all;
    for (const EmbeddedKernel& kernel : kEmbedded) all.emplace(kernel.file, kernel.source);
    return all;
  }();
  auto found = sources.find(file);
  if (found == sources.end()) throw std::invalid_argument("no kernel file kernels/" + std::string(file));
  return found->second;
}

std::vector<std::string> kernel_files() {
  std::vector<std::string> files;
  for (const EmbeddedKernel& kernel : kEmbedded) files.emplace_back(kernel.file);
  return files;
}

JitModule::JitModule(std::string_view file) : file_(file) {
  // The runtime's primary context must be current before the driver API loads anything into it.
  CUDA_CHECK(cudaSetDevice(device().ordinal));
  CUDA_CHECK(cudaFree(nullptr));
  const auto& properties = device().properties;
  const std::string arch = "-arch=sm_" + std::to_string(properties.major) + std::to_string(properties.minor);
  Compilation compiled = compile(kernel_source(file), "kernels/" + file_, {arch, "-std=c++17"});
  if (!compiled.ok()) {
    throw std::runtime_error("NVRTC cannot compile kernels/" + file_ + " (" + arch + "): " + compiled.describe());
  }
  if (compiled.cubin.empty()) throw std::runtime_error("NVRTC produced no CUBIN for kernels/" + file_);
  check(driver().module_load_data(&module_, compiled.cubin.data()), "cuModuleLoadData(kernels/" + file_ + ")");
}

void JitModule::launch_with(const char* name, dim3 grid, dim3 block, void** arguments) {
  CUfunction function = nullptr;
  check(driver().module_get_function(&function, module_, name), "cuModuleGetFunction(" + std::string(name) + ")");
  check(driver().launch_kernel(function, grid.x, grid.y, grid.z, block.x, block.y, block.z, 0, nullptr, arguments,
                               nullptr),
        "cuLaunchKernel(" + std::string(name) + ")");
  CUDA_CHECK(cudaDeviceSynchronize());
}

JitModule& jit_module(std::string_view file) {
  // Never unloaded: the modules live as long as the process and its context.
  static std::map<std::string, std::unique_ptr<JitModule>, std::less<>> modules;
  auto found = modules.find(file);
  if (found == modules.end()) {
    found = modules.emplace(std::string(file), std::make_unique<JitModule>(file)).first;
  }
  return *found->second;
}

}  // namespace cuconform::nvrtc
