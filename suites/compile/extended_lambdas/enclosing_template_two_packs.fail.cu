// rule: ExtendedLambdas.EnclosingTemplateOnePack
// section: PG12.9 18.7.2
// statement: an enclosing function template of an extended lambda may have at most one variadic parameter
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// skip.clang: a consequence of nvcc's extended-lambda translation, for which PG12.9 18.7.2 promises diagnostics
//   only in a subset of cases; clang does no such translation
// error: error: (.*parameter pack|no matches converting function .bar1. to type)
// note: nvcc 13.0's front end does not diagnose this; the host compiler then fails on the address expression nvcc
//   generates for the enclosing function (PG12.9 18.7.2 promises diagnostics only for a subset)
template <typename... T>
struct foo {};

template <template <typename...> class T, typename... P1, typename... P2>
void bar1(const T<P1...>, const T<P2...>) {
  auto lam1 = [] __device__ { return 10; };
}

int main() {
  foo<char, int, float> f1;
  foo<char, int> f2;
  bar1(f1, f2);
}
