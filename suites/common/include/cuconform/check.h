// CUDA error checks that fail the test naming the call and the error.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace cuconform {

// Thrown by the helpers (buffers, launches) that cannot use ASSERT_*; GoogleTest reports its message as a failure.
class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const std::string& what) : std::runtime_error(what), code_(code) {}
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

std::string describe(cudaError_t error);  // "cudaErrorInvalidValue: invalid argument"

::testing::AssertionResult CudaSucceeded(const char* expression, cudaError_t error);

void throw_if_failed(cudaError_t error, const char* expression, const char* file, int line);

}  // namespace cuconform

#define CUDA_ASSERT(expression) ASSERT_PRED_FORMAT1(::cuconform::CudaSucceeded, expression)
#define CUDA_EXPECT(expression) EXPECT_PRED_FORMAT1(::cuconform::CudaSucceeded, expression)
// For helpers outside a test body: throws cuconform::CudaError.
#define CUDA_CHECK(expression) ::cuconform::throw_if_failed((expression), #expression, __FILE__, __LINE__)
