// PG12.9 10.35.2: "The printf() command can accept at most 32 arguments in addition to the format string.
// Additional arguments beyond this will be ignored, and the format specifier output as-is."
// A printf with 33 %d and 33 arguments must print 1 ... 32 and then "%d" itself.
// Exit: 1 the 33rd specifier is not output as-is (the disagreement), 0 it is, 2 error.
#include <unistd.h>

#include <cstdio>
#include <string>

__global__ void thirty_three() {
  printf("%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d\n", 1, 2,
         3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
         32, 33);
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "no CUDA device\n");
    return 2;
  }
  // Capture stdout around the launch and the synchronization (which flushes the printf buffer).
  std::fflush(stdout);
  std::FILE* capture = std::tmpfile();
  const int saved = dup(1);
  dup2(fileno(capture), 1);
  thirty_three<<<1, 1>>>();
  const cudaError_t error = cudaDeviceSynchronize();
  std::fflush(stdout);
  dup2(saved, 1);
  if (error != cudaSuccess) {
    std::printf("kernel failed: %s\n", cudaGetErrorString(error));
    return 2;
  }
  std::string printed;
  std::rewind(capture);
  for (int c; (c = std::fgetc(capture)) != EOF;) printed += static_cast<char>(c);

  std::string documented;
  for (int i = 1; i <= 32; ++i) documented += std::to_string(i) + ",";
  documented += "%d\n";
  std::printf("documented: %s", documented.c_str());
  std::printf("observed:   %s", printed.c_str());
  return printed == documented ? 0 : 1;
}
