// rule: FeatureMacros.DiagPragmaSupport
// section: 5.4.7.3
// statement: nvcc defines __NVCC_DIAG_PRAGMA_SUPPORT__: the diagnostic control pragmas are supported
// skip.clang: an nvcc feature macro (5.4.7.3 lists the macros nvcc provides)
#ifndef __NVCC_DIAG_PRAGMA_SUPPORT__
#error "__NVCC_DIAG_PRAGMA_SUPPORT__ is not defined"
#endif
#pragma nv_diagnostic push
#pragma nv_diag_suppress 177
__device__ void unused_variable() { int never_used; }
#pragma nv_diagnostic pop
