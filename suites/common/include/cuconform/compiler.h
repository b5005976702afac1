// What the compiler of this build can do: tests compile out what it cannot build and skip with the reason.
#pragma once

#if defined(__clang__) && defined(__CUDA__)
#define CUCONFORM_CLANG_CUDA 1
#else
#define CUCONFORM_CLANG_CUDA 0
#endif

#if defined(__NVCC__) || defined(__CUDACC_RTC__)
#define CUCONFORM_NVIDIA_COMPILER 1
#else
#define CUCONFORM_NVIDIA_COMPILER 0
#endif

// The __nv_atomic_* built-ins (5.4.5.2) exist in NVIDIA's compilers only.
#define CUCONFORM_HAS_NV_ATOMIC_BUILTINS CUCONFORM_NVIDIA_COMPILER
