// rule: ExtendedLambdas.NotInPrivateNestedClass
// section: PG12.9 18.7.2
// statement: an extended lambda cannot be defined in a member function of a class that has private or protected
//   access in its parent class
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// skip.clang: a consequence of nvcc's extended-lambda translation, for which PG12.9 18.7.2 promises diagnostics
//   only in a subset of cases; clang does no such translation
// error: error: An extended __device__ lambda cannot be defined inside a class \("S2_t"\) with private or protected
//   access within another class
class C0_t {
  struct S2_t {
   public:
    void foo(void) { auto temp1 = [] __device__ { return 10; }; }
  };
};
