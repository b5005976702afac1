// rule: ExtendedLambdas.NeedFlag
// section: PG12.9 18.7
// statement: explicit execution space annotations on a lambda need the nvcc flag --extended-lambda
// skip.clang: --extended-lambda is an nvcc option (clang takes annotated lambdas without it)
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// error: error: __host__ or __device__ annotation on lambda requires --extended-lambda nvcc flag
void foo_host(void) { auto lam2 = [] __device__ {}; }
