// rule: FeatureMacros.RelaxedConstexprWithFlag
// section: 5.4.7.3
// statement: nvcc defines __CUDACC_RELAXED_CONSTEXPR__ when --expt-relaxed-constexpr is given
// flags.nvcc: --expt-relaxed-constexpr
// skip.nvrtc: NVRTC 13.0 has no --expt-relaxed-constexpr option
// skip.clang: an nvcc feature macro and flag (clang's constexpr functions are host and device without a flag)
#ifndef __CUDACC_RELAXED_CONSTEXPR__
#error "__CUDACC_RELAXED_CONSTEXPR__ is not defined"
#endif
__global__ void kernel() {}
