// rule: FeatureMacros.NoRelaxedConstexprWithoutFlag
// section: 5.4.7.3
// statement: without --expt-relaxed-constexpr, __CUDACC_RELAXED_CONSTEXPR__ is not defined
// skip.clang: an nvcc feature macro and flag (clang's constexpr functions are host and device without a flag)
#ifdef __CUDACC_RELAXED_CONSTEXPR__
#error "__CUDACC_RELAXED_CONSTEXPR__ is defined without --expt-relaxed-constexpr"
#endif
__global__ void kernel() {}
