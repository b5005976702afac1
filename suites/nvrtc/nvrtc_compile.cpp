// nvrtc-compile: NVRTC as a command-line compiler, so that compile-time rules (suites/compile) run through NVRTC
// like through nvcc and clang, and so that a user can reproduce a finding with one command.
//
//   nvrtc-compile [--ptx FILE] SOURCE.cu [NVRTC options...]     e.g. nvrtc-compile k.cu -arch=sm_90 -std=c++17
//   nvrtc-compile --version                                       prints "nvrtc 13.0"
//
// The program log goes to standard error. Exit codes: 0 compiled, 1 the program did not compile (the log says why),
// 2 bad usage, an unreadable file or another NVRTC error.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "nvrtc_program.h"

namespace {

constexpr int kCompiled = 0, kRejected = 1, kUsage = 2;

int usage() {
  std::cerr << "usage: nvrtc-compile [--ptx FILE] SOURCE.cu [NVRTC options...]\n"
               "       nvrtc-compile --version\n";
  return kUsage;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 1 && args[0] == "--version") {
    std::cout << "nvrtc " << cuconform::nvrtc::version() << "\n";
    return kCompiled;
  }
  std::string ptx_path;
  std::size_t next = 0;
  if (next < args.size() && args[next] == "--ptx") {
    if (next + 1 >= args.size()) return usage();
    ptx_path = args[next + 1];
    next += 2;
  }
  if (next >= args.size()) return usage();
  const std::string source_path = args[next++];
  const std::vector<std::string> options(args.begin() + static_cast<std::ptrdiff_t>(next), args.end());

  std::ifstream file(source_path, std::ios::binary);
  if (!file) {
    std::cerr << "nvrtc-compile: cannot read " << source_path << ": " << std::strerror(errno) << "\n";
    return kUsage;
  }
  std::stringstream source;
  source << file.rdbuf();

  cuconform::nvrtc::Compilation compilation;
  try {
    compilation = cuconform::nvrtc::compile(source.str(), source_path, options);
  } catch (const std::exception& error) {
    std::cerr << "nvrtc-compile: " << error.what() << "\n";
    return kUsage;
  }
  std::cerr << compilation.log;
  if (!compilation.log.empty() && compilation.log.back() != '\n') std::cerr << "\n";
  if (compilation.result == NVRTC_ERROR_COMPILATION) return kRejected;
  if (!compilation.ok()) {
    std::cerr << "nvrtc-compile: " << nvrtcGetErrorString(compilation.result) << "\n";
    return kUsage;
  }
  if (!ptx_path.empty()) {
    std::ofstream out(ptx_path, std::ios::binary);
    out << compilation.ptx;
    if (!out) {
      std::cerr << "nvrtc-compile: cannot write " << ptx_path << "\n";
      return kUsage;
    }
  }
  return kCompiled;
}
