// NVRTC in a few calls: compile one CUDA source at run time and keep its log, PTX and CUBIN.
// Used by the compile-rule tool (nvrtc_compile.cpp) and by the NVRTC suite (cuconform-nvrtc).
#pragma once

#include <nvrtc.h>

#include <string>
#include <vector>

namespace cuconform::nvrtc {

struct Compilation {
  nvrtcResult result = NVRTC_SUCCESS;  // what nvrtcCompileProgram returned
  std::string log;                     // the program log: diagnostics, as the compiler printed them
  std::string ptx;                     // empty unless the compilation succeeded
  std::vector<char> cubin;             // empty unless it succeeded for a real architecture (-arch=sm_XY)

  bool ok() const { return result == NVRTC_SUCCESS; }
  std::string describe() const;  // "NVRTC_ERROR_COMPILATION" and the log
};

// Compiles `source`, shown in diagnostics as `name`, with NVRTC options such as "-arch=sm_90", "-std=c++17".
// Only a failure to create the program throws (std::runtime_error); a compile error is in the result.
Compilation compile(const std::string& source, const std::string& name, const std::vector<std::string>& options);

// "13.0"
std::string version();

}  // namespace cuconform::nvrtc
