// rule: ExtendedLambdas.NotInPrivateMemberFunction
// section: PG12.9 18.7.2
// statement: an extended lambda cannot be defined in a member function with private or protected access
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// skip.clang: a consequence of nvcc's extended-lambda translation, for which PG12.9 18.7.2 promises diagnostics
//   only in a subset of cases; clang does no such translation
// error: error: The enclosing parent function \("foo"\) for an extended __device__ lambda cannot have private or
//   protected access within its class
class C0_t {
  void foo(void) { auto temp1 = [] __device__ { return 10; }; }
};
