// rule: ExtendedLambdas.EnclosingTemplateNotInstantiatedWithLocalType
// section: PG12.9 18.7.2
// statement: the enclosing function template of an extended lambda cannot be instantiated with a type local to a
//   function
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// skip.clang: a consequence of nvcc's extended-lambda translation, for which PG12.9 18.7.2 promises diagnostics
//   only in a subset of cases; clang does no such translation
// error: error: A type local to a function \("S1_t"\) cannot be used in the template argument of the enclosing parent
//   function
template <typename T>
__global__ void kern(T in) { in(); }

template <typename T>
void bar4(void) {
  auto lam1 = [] __device__ { return 10; };
  kern<<<1, 1>>>(lam1);
}

int main() {
  struct S1_t {};
  bar4<S1_t>();
}
