// 5.4.7.3 CUDA Feature Testing Macros, as one translation unit saw them in its host and its device compilation.
#pragma once

namespace cuconform_macros {

struct FeatureMacros {
  int device_atomic_builtins;  // __CUDACC_DEVICE_ATOMIC_BUILTINS__
  int diag_pragma_support;     // __NVCC_DIAG_PRAGMA_SUPPORT__
  int extended_lambda;         // __CUDACC_EXTENDED_LAMBDA__
  int relaxed_constexpr;       // __CUDACC_RELAXED_CONSTEXPR__
};

}  // namespace cuconform_macros

// Expands, in a function body, to the FeatureMacros of the compilation it is compiled in.
#if defined(__CUDACC_DEVICE_ATOMIC_BUILTINS__)
#define CUCONFORM_SEES_ATOMIC_BUILTINS 1
#else
#define CUCONFORM_SEES_ATOMIC_BUILTINS 0
#endif
#if defined(__NVCC_DIAG_PRAGMA_SUPPORT__)
#define CUCONFORM_SEES_DIAG_PRAGMA 1
#else
#define CUCONFORM_SEES_DIAG_PRAGMA 0
#endif
#if defined(__CUDACC_EXTENDED_LAMBDA__)
#define CUCONFORM_SEES_EXTENDED_LAMBDA 1
#else
#define CUCONFORM_SEES_EXTENDED_LAMBDA 0
#endif
#if defined(__CUDACC_RELAXED_CONSTEXPR__)
#define CUCONFORM_SEES_RELAXED_CONSTEXPR 1
#else
#define CUCONFORM_SEES_RELAXED_CONSTEXPR 0
#endif
#define CUCONFORM_FEATURE_MACROS_HERE                                                           \
  ::cuconform_macros::FeatureMacros {                                                           \
    CUCONFORM_SEES_ATOMIC_BUILTINS, CUCONFORM_SEES_DIAG_PRAGMA, CUCONFORM_SEES_EXTENDED_LAMBDA, \
        CUCONFORM_SEES_RELAXED_CONSTEXPR                                                        \
  }
