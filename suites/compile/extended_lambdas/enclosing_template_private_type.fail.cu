// rule: ExtendedLambdas.EnclosingTemplateNotInstantiatedWithPrivateType
// section: PG12.9 18.7.2
// statement: the enclosing function template of an extended lambda cannot be instantiated with a private class
//   member type
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// skip.clang: a consequence of nvcc's extended-lambda translation, for which PG12.9 18.7.2 promises diagnostics
//   only in a subset of cases; clang does no such translation
// error: error: .*(private|S1_t)
template <typename T>
__global__ void kern(T in) { in(); }

template <typename T>
void bar4(void) {
  auto lam1 = [] __device__ { return 10; };
  kern<<<1, 1>>>(lam1);
}

struct C1_t {
  struct S1_t {};
  friend int main(void);
};

int main() { bar4<C1_t::S1_t>(); }
