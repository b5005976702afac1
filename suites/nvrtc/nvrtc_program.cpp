#include "nvrtc_program.h"

#include <memory>
#include <stdexcept>

namespace cuconform::nvrtc {
namespace {

struct ProgramDeleter {
  void operator()(nvrtcProgram program) const { nvrtcDestroyProgram(&program); }
};
using Program = std::unique_ptr<std::remove_pointer_t<nvrtcProgram>, ProgramDeleter>;

std::string read_log(nvrtcProgram program) {
  size_t size = 0;
  if (nvrtcGetProgramLogSize(program, &size) != NVRTC_SUCCESS || size <= 1) return "";
  std::string log(size, '\0');
  if (nvrtcGetProgramLog(program, log.data()) != NVRTC_SUCCESS) return "";
  while (!log.empty() && log.back() == '\0') log.pop_back();  // the size counts the terminating NUL (and more)
  return log;
}

std::string read_ptx(nvrtcProgram program) {
  size_t size = 0;
  if (nvrtcGetPTXSize(program, &size) != NVRTC_SUCCESS || size <= 1) return "";
  std::string ptx(size, '\0');
  if (nvrtcGetPTX(program, ptx.data()) != NVRTC_SUCCESS) return "";
  ptx.resize(size - 1);
  return ptx;
}

std::vector<char> read_cubin(nvrtcProgram program) {
  size_t size = 0;
  // A compilation for a virtual architecture (-arch=compute_XY) has no CUBIN: the size query fails or is 0.
  if (nvrtcGetCUBINSize(program, &size) != NVRTC_SUCCESS || size == 0) return {};
  std::vector<char> cubin(size);
  if (nvrtcGetCUBIN(program, cubin.data()) != NVRTC_SUCCESS) return {};
  return cubin;
}

}  // namespace

std::string Compilation::describe() const {
  std::string text = nvrtcGetErrorString(result);
  if (!log.empty()) text += ":\n" + log;
  return text;
}

Compilation compile(const std::string& source, const std::string& name, const std::vector<std::string>& options) {
  nvrtcProgram raw = nullptr;
  nvrtcResult created = nvrtcCreateProgram(&raw, source.c_str(), name.c_str(), 0, nullptr, nullptr);
  if (created != NVRTC_SUCCESS) {
    throw std::runtime_error(std::string("nvrtcCreateProgram: ") + nvrtcGetErrorString(created));
  }
  Program program(raw);
  std::vector<const char*> argv;
  for (const std::string& option : options) argv.push_back(option.c_str());
  Compilation compilation;
  compilation.result = nvrtcCompileProgram(program.get(), static_cast<int>(argv.size()), argv.data());
  compilation.log = read_log(program.get());
  if (compilation.ok()) {
    compilation.ptx = read_ptx(program.get());
    compilation.cubin = read_cubin(program.get());
  }
  return compilation;
}

std::string version() {
  int major = 0, minor = 0;
  if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return "unknown";
  return std::to_string(major) + "." + std::to_string(minor);
}

}  // namespace cuconform::nvrtc
