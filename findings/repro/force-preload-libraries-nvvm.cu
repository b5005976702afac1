// nvcc-flags: -lcuda
// PG12.9 22: "CUDA_FORCE_PRELOAD_LIBRARIES: When set to 1, forces the driver to preload the libraries required for
// NVVM and PTX just-in-time compilation during driver initialization". With the variable set, calls cuInit and reads
// /proc/self/maps for the PTX JIT compiler (libnvidia-ptxjitcompiler) and NVVM (libnvidia-nvvm), and says whether
// libnvidia-nvvm is installed (dlopen without loading it into the maps first is not possible: it is checked last).
// Exit: 1 a library that is installed is not mapped after cuInit (the disagreement), 0 both mapped, 2 error.
#include <cuda.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

bool mapped(const char* name) {
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);)
    if (line.find(name) != std::string::npos) return true;
  return false;
}

int main() {
  setenv("CUDA_FORCE_PRELOAD_LIBRARIES", "1", 1);
  if (cuInit(0) != CUDA_SUCCESS) {
    std::printf("no usable GPU\n");
    return 2;
  }
  const bool ptx_jit = mapped("libnvidia-ptxjitcompiler"), nvvm = mapped("libnvidia-nvvm");
  const bool nvvm_installed = nvvm || dlopen("libnvidia-nvvm.so.4", RTLD_NOW) || dlopen("libnvidia-nvvm.so", RTLD_NOW);
  std::printf("after cuInit with CUDA_FORCE_PRELOAD_LIBRARIES=1: libnvidia-ptxjitcompiler %s, libnvidia-nvvm %s "
              "(installed: %s)\n",
              ptx_jit ? "mapped" : "not mapped", nvvm ? "mapped" : "not mapped", nvvm_installed ? "yes" : "no");
  return ptx_jit && (nvvm || !nvvm_installed) ? 0 : 1;
}
