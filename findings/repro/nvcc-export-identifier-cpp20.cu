// nvcc-flags:
// A compile reproducer. `export` is a keyword of every C++ standard ([lex.key]), so a device function that names
// a variable `export` is ill-formed; PG12.9 18.5.25.1 says modules are not supported, and nvcc 13.0.88 rejects
// `export module m;` with "modules are not enabled in this mode" and the variable with '"export" is not allowed'.
// nvcc 13.5.37 with -std=c++20 takes `export` for an identifier in device code: it rejects `export module m;` with
// 'identifier "export" is undefined' and compiles the function below (exit 0). This program writes that function
// to a file, compiles it with nvcc -std=c++20 (the nvcc on PATH, or $NVCC) and exits 1 when nvcc accepts it (the
// finding reproduces), 0 when nvcc rejects it, 2 when nvcc cannot be run. The nvcc of CUDA 13.0 exits 0 here:
// NVCC=build/toolkits/13.5.0/bin/nvcc scripts/run-repros nvcc-export-identifier-cpp20 shows it (scripts/toolkit).
#include <cstdio>
#include <cstdlib>
#include <string>

int main() {
  const char* nvcc = std::getenv("NVCC") ? std::getenv("NVCC") : "nvcc";
  const std::string dir = std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp";
  const std::string source = dir + "/nvcc-export-identifier-cpp20.cu";
  std::FILE* file = std::fopen(source.c_str(), "w");
  if (file == nullptr) {
    std::printf("cannot write %s\n", source.c_str());
    return 2;
  }
  std::fputs("__device__ int f(int x) { int export = x; return export; }\n", file);
  std::fclose(file);

  const std::string version = std::string(nvcc) + " --version > /dev/null 2>&1";
  if (std::system(version.c_str()) != 0) {
    std::printf("cannot run %s\n", nvcc);
    return 2;
  }
  const std::string command = std::string(nvcc) + " -std=c++20 -arch=sm_90 -c " + source + " -o " + source + ".o";
  std::printf("%s\n", command.c_str());
  const int status = std::system(command.c_str());
  std::printf("documented: `export` is a keyword, so `int export = x;` is rejected\n");
  if (status == 0) {
    std::printf("observed: nvcc compiles it (exit 0)\n");
    return 1;
  }
  std::printf("observed: nvcc rejects it (the finding is gone)\n");
  return 0;
}
