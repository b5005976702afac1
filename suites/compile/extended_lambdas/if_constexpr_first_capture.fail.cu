// rule: ExtendedLambdas.NoFirstCaptureInIfConstexpr
// section: PG12.9 18.7.2
// statement: an extended lambda cannot implicitly capture a variable for the first time inside an if constexpr
//   block
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// skip.clang: a consequence of nvcc's extended-lambda translation, for which PG12.9 18.7.2 promises diagnostics
//   only in a subset of cases; clang does no such translation
// error: error: An extended __device__ lambda cannot first-capture variable in constexpr-if context
void foo(void) {
  int yyy = 4;
  auto lam9 = [=] __device__ {
    int result = 0;
    if constexpr (false) {
      result += yyy;
    }
    return result;
  };
}
