#include "cuconform/check.h"

namespace cuconform {

std::string describe(cudaError_t error) {
  return std::string(cudaGetErrorName(error)) + ": " + cudaGetErrorString(error);
}

::testing::AssertionResult CudaSucceeded(const char* expression, cudaError_t error) {
  if (error == cudaSuccess) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << expression << " returned " << describe(error);
}

void throw_if_failed(cudaError_t error, const char* expression, const char* file, int line) {
  if (error == cudaSuccess) return;
  throw CudaError(error,
                  std::string(file) + ":" + std::to_string(line) + ": " + expression + " returned " + describe(error));
}

}  // namespace cuconform
