// PG12.9 10.35.4: the guide's example
//     __global__ void helloCUDA(float f) { printf("Hello thread %d, f=%f\n", threadIdx.x, f); }
//     helloCUDA<<<1, 5>>>(1.2345f);
// "will output" five lines "Hello thread <i>, f=1.2345". 10.35 says printf behaves like the C library's and 10.35.2
// that the final formatting happens on the host with the host's C library, whose %f prints six decimals:
// "f=1.234500". The example's stated output contradicts the rest of the section.
// Exit: 1 the output is not the example's (the documentation error reproduces), 0 it is, 2 error.
#include <unistd.h>

#include <cstdio>
#include <string>

__global__ void helloCUDA(float f) { printf("Hello thread %d, f=%f\n", threadIdx.x, f); }

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "no CUDA device\n");
    return 2;
  }
  std::fflush(stdout);
  std::FILE* capture = std::tmpfile();
  const int saved = dup(1);
  dup2(fileno(capture), 1);
  helloCUDA<<<1, 5>>>(1.2345f);
  const cudaError_t error = cudaDeviceSynchronize();
  std::fflush(stdout);
  dup2(saved, 1);
  if (error != cudaSuccess) {
    std::printf("kernel failed: %s\n", cudaGetErrorString(error));
    return 2;
  }
  std::rewind(capture);
  char line[256];
  int lines = 0, as_documented = 0;
  std::string first;
  while (std::fgets(line, sizeof line, capture)) {
    int thread = -1;
    char rest[64] = {};
    if (std::sscanf(line, "Hello thread %d, f=%63s", &thread, rest) == 2) {
      ++lines;
      as_documented += std::string(rest) == "1.2345";
      if (first.empty()) first = line;
    }
  }
  std::printf("documented: 5 lines 'Hello thread <i>, f=1.2345'\n");
  std::printf("observed:   %d lines, %d as documented; e.g. %s", lines, as_documented, first.c_str());
  if (lines != 5) return 2;
  return as_documented == 5 ? 0 : 1;
}
