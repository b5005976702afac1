// rule: ExtendedLambdas.NoInitCaptureOfInitializerList
// section: PG12.9 18.7.2
// statement: an init-capture of an extended __device__ lambda cannot be of type std::initializer_list
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// skip.clang: a consequence of nvcc's extended-lambda translation, for which PG12.9 18.7.2 promises diagnostics
//   only in a subset of cases; clang does no such translation
// error: error: An extended __device__ lambda cannot have init-captures with type std::initializer_list
#include <initializer_list>

void foo(void) {
  std::initializer_list<int> b = {11, 22, 33};
  auto lam8 = [x = b] __device__() {};
}
