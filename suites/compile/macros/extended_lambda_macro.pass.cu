// rule: FeatureMacros.ExtendedLambdaWithFlag
// section: 5.4.7.3
// statement: nvcc defines __CUDACC_EXTENDED_LAMBDA__ when --extended-lambda is given
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// skip.clang: an nvcc feature macro and flag (clang takes annotated lambdas without a flag)
#ifndef __CUDACC_EXTENDED_LAMBDA__
#error "__CUDACC_EXTENDED_LAMBDA__ is not defined"
#endif
__global__ void kernel() {}
