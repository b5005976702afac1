// rule: ExtendedLambdas.NoCaptureOfPackElement
// section: PG12.9 18.7.2
// statement: a function parameter that is an element of a variadic argument pack cannot be captured by an
//   extended lambda
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// skip.clang: a consequence of nvcc's extended-lambda translation, for which PG12.9 18.7.2 promises diagnostics
//   only in a subset of cases; clang does no such translation
// error: error: An extended __device__ lambda cannot capture an element of a parameter pack
template <typename... Ts>
void foo(Ts... values) {
  auto lam = [values...] __device__() { return sizeof...(values); };
}

void bar() { foo(1, 2); }
