// rule: ExtendedLambdas.EnclosingTemplateParametersNamed
// section: PG12.9 18.7.2
// statement: the template parameters of an enclosing function template of an extended lambda must be named
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// skip.clang: a consequence of nvcc's extended-lambda translation, for which PG12.9 18.7.2 promises diagnostics
//   only in a subset of cases; clang does no such translation
// error: error: (.*must be named|.__T0. was not declared in this scope)
// note: nvcc 13.0's front end does not diagnose this; the host compiler then fails on the address expression nvcc
//   generates for the enclosing function (PG12.9 18.7.2 promises diagnostics only for a subset)
template <typename T, T>
void bar3(void) {
  auto lam1 = [] __device__ { return 10; };
}

int main() { bar3<int, 10>(); }
