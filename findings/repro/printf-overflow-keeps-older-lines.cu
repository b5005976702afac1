// PG12.9 10.35.2: the printf output buffer "is circular and if more output is produced during kernel execution than
// can fit in the buffer, older output is overwritten." One thread prints "record 0" ... "record N-1" into a buffer
// too small for them: the lines that reach stdout must be the newest ones, N-n ... N-1, whatever their order.
// Exit: 1 they are not (the disagreement), 0 they are, 2 error.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

__global__ void print_records(int count) {
  for (int i = 0; i < count; ++i) printf("record %d\n", i);
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "no CUDA device\n");
    return 2;
  }
  std::size_t size = 0;
  if (cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 64 << 10) != cudaSuccess ||
      cudaDeviceGetLimit(&size, cudaLimitPrintfFifoSize) != cudaSuccess) {
    std::printf("setting the printf buffer size failed\n");
    return 2;
  }
  const int count = static_cast<int>(size / 8);  // a record holds at least a format pointer and an argument

  std::fflush(stdout);
  std::FILE* capture = std::tmpfile();
  const int saved = dup(1);
  dup2(fileno(capture), 1);
  print_records<<<1, 1>>>(count);
  const cudaError_t error = cudaDeviceSynchronize();
  std::fflush(stdout);
  dup2(saved, 1);
  if (error != cudaSuccess) {
    std::printf("kernel failed: %s\n", cudaGetErrorString(error));
    return 2;
  }
  std::vector<int> numbers;
  std::rewind(capture);
  char line[256];
  while (std::fgets(line, sizeof line, capture)) {
    int n = -1;
    if (std::sscanf(line, "record %d", &n) == 1) numbers.push_back(n);
  }
  const std::vector<int> in_output_order = numbers;
  std::sort(numbers.begin(), numbers.end());
  const int n = static_cast<int>(numbers.size());
  int first_wrong = -1;
  for (int i = 0; i < n && first_wrong < 0; ++i) {
    if (numbers[i] != count - n + i) first_wrong = i;
  }
  std::printf("buffer %zu bytes, %d records printed, %d lines reached stdout\n", size, count, n);
  std::printf("documented: the newest %d lines, %d ... %d\n", n, count - n, count - 1);
  if (n > 0) {
    std::printf("observed:   lines %d ... %d (sorted); first lines in output order:", numbers.front(), numbers.back());
    for (int i = 0; i < std::min(n, 4); ++i) std::printf(" %d", in_output_order[i]);
    std::printf("\n");
  }
  if (first_wrong >= 0) {
    std::printf("sorted position %d holds line %d, not %d\n", first_wrong, numbers[first_wrong],
                count - n + first_wrong);
  }
  if (n == count) {
    std::printf("the buffer did not overflow: cannot tell\n");
    return 2;
  }
  return first_wrong >= 0 ? 1 : 0;
}
