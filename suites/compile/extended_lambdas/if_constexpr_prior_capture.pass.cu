// rule: ExtendedLambdas.IfConstexprAfterPriorCapture
// section: PG12.9 18.7.2
// statement: an extended lambda may use a variable inside an if constexpr block when it is in the explicit capture
//   list or was implicitly captured before the block
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
void foo(void) {
  int yyy = 4;
  auto lam10 = [yyy] __device__ {
    int result = 0;
    if constexpr (false) {
      result += yyy;
    }
    return result;
  };
  auto lam11 = [=] __device__ {
    int result = yyy;
    if constexpr (false) {
      result += yyy;
    }
    return result;
  };
}
