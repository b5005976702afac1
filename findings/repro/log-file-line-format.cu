// nvcc-flags: -ldl
// PG12.9 23.3: with CUDA_LOG_FILE set, error logs are "output in the following format:
// [Time][TID][Source][Severity][API Entry Point] Message", e.g. the guide's own
// "[22:21:32.099][25642][CUDA][E][cuLogsDumpToMemory] buffer cannot be NULL" for cuLogsDumpToMemory with a NULL buffer.
// This program sets CUDA_LOG_FILE itself (before the driver initializes), makes that call and prints the log.
// Exit: 1 no line has the documented form (the disagreement), 0 one has, 2 error.
#include <cuda.h>
#include <dlfcn.h>
#include <stdlib.h>

#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>

int main() {
  const char* path = "/tmp/cuconform-log-file-line-format.log";
  std::remove(path);
  setenv("CUDA_LOG_FILE", path, 1);
  void* libcuda = dlopen("libcuda.so.1", RTLD_NOW);
  if (!libcuda) return 2;
  auto init = reinterpret_cast<CUresult (*)(unsigned)>(dlsym(libcuda, "cuInit"));
  auto dump = reinterpret_cast<CUresult (*)(CUlogIterator*, char*, size_t*, unsigned)>(
      dlsym(libcuda, "cuLogsDumpToMemory"));
  if (!init || !dump || init(0) != CUDA_SUCCESS) return 2;
  size_t size = 0;
  const CUresult result = dump(nullptr, nullptr, &size, 0);
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  std::printf("documented: [hh:mm:ss.mmm][tid][CUDA][E][cuLogsDumpToMemory] buffer cannot be NULL\n");
  std::printf("observed (cuLogsDumpToMemory returned %d):\n%s", static_cast<int>(result), text.str().c_str());
  if (text.str().empty()) return 2;
  const std::regex documented(
      R"(\[\d\d:\d\d:\d\d\.\d{3}\]\[\d+\]\[CUDA\]\[E\]\[cuLogsDumpToMemory\] buffer cannot be NULL)");
  return std::regex_search(text.str(), documented) ? 0 : 1;
}
