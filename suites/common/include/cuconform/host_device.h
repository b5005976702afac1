// CUCONFORM_HOST_DEVICE marks a function that host and device code both call: a host model that a kernel shares, a
// filter the GPU runs and the host re-checks. Where no CUDA compiler reads the file (a host-only .cpp, a self-test),
// it marks nothing. nvcc defines __CUDACC__; clang in CUDA mode defines __CUDA__ (and __CUDACC__ in its wrapper).
#pragma once

#if defined(__CUDACC__) || defined(__CUDA__)
#define CUCONFORM_HOST_DEVICE __host__ __device__
#else
#define CUCONFORM_HOST_DEVICE
#endif
