// 5.4.8.6, the guide's DPX example:
//     unsigned a = 9; unsigned b = 6; bool smaller_value;
//     unsigned min_value = __vibmin_u32(a, b, &smaller_value); // min_value is 6, smaller_value is true
// The CUDA Math API, to which the section refers for the full API (and the toolkit's crt/device_functions.h),
// defines __vibmin_u32 as "Computes min(a, b), also sets the value pointed to by pred to (a <= b)": (9 <= 6) is
// false. The example's comment contradicts the function's definition.
// Exit: 1 smaller_value is false (the documentation error reproduces), 0 it is true as the comment says, 2 error.
#include <cstdio>

__global__ void example(const unsigned* operands, unsigned* min_value, int* smaller_value) {
  bool smaller = false;
  *min_value = __vibmin_u32(operands[0], operands[1], &smaller);
  *smaller_value = smaller;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device\n");
    return 2;
  }
  unsigned* operands = nullptr;
  unsigned* min_value = nullptr;
  int* smaller_value = nullptr;
  if (cudaMallocManaged(&operands, 2 * sizeof(unsigned)) != cudaSuccess ||
      cudaMallocManaged(&min_value, sizeof(unsigned)) != cudaSuccess ||
      cudaMallocManaged(&smaller_value, sizeof(int)) != cudaSuccess) {
    return 2;
  }
  operands[0] = 9;  // a
  operands[1] = 6;  // b
  example<<<1, 1>>>(operands, min_value, smaller_value);
  const cudaError_t error = cudaDeviceSynchronize();
  if (error != cudaSuccess) {
    std::printf("kernel failed: %s\n", cudaGetErrorString(error));
    return 2;
  }
  std::printf("the guide's comment: min_value is 6, smaller_value is true\n");
  std::printf("the Math API:        min_value is 6, smaller_value is (9 <= 6) = false\n");
  std::printf("observed:            min_value is %u, smaller_value is %s\n", *min_value,
              *smaller_value ? "true" : "false");
  if (*min_value != 6) return 2;
  return *smaller_value ? 0 : 1;
}
