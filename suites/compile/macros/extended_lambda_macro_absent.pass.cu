// rule: FeatureMacros.NoExtendedLambdaWithoutFlag
// section: 5.4.7.3
// statement: without --extended-lambda, __CUDACC_EXTENDED_LAMBDA__ is not defined
// skip.clang: an nvcc feature macro and flag (clang takes annotated lambdas without a flag)
#ifdef __CUDACC_EXTENDED_LAMBDA__
#error "__CUDACC_EXTENDED_LAMBDA__ is defined without --extended-lambda"
#endif
__global__ void kernel() {}
