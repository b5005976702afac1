// rule: ExtendedLambdas.InPublicMemberFunction
// section: PG12.9 18.7.2
// statement: an extended lambda may be defined in a public member function of a named class with public access
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
struct Outer {
  struct Inner {
    void foo(void) { auto lam = [] __device__ { return 10; }; }
  };
  void bar(void) { auto lam = [] __host__ __device__ { return 11; }; }
};
