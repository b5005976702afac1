// rule: ExtendedLambdas.EnclosingTemplatePackLast
// section: PG12.9 18.7.2
// statement: the variadic parameter of an enclosing function template of an extended lambda must be the last
//   template parameter
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// skip.clang: a consequence of nvcc's extended-lambda translation, for which PG12.9 18.7.2 promises diagnostics
//   only in a subset of cases; clang does no such translation
// error: error: (.*parameter pack|no matches converting function .bar2. to type)
// note: nvcc 13.0's front end does not diagnose this; the host compiler then fails on the address expression nvcc
//   generates for the enclosing function (PG12.9 18.7.2 promises diagnostics only for a subset)
template <typename... T>
struct foo {};

template <template <typename...> class T, typename... P1, typename T2>
void bar2(const T<P1...>, T2) {
  auto lam1 = [] __device__ { return 10; };
}

int main() {
  foo<char, int, float> f1;
  bar2(f1, 10);
}
