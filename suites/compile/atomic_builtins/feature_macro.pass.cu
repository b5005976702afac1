// rule: AtomicBuiltins.FeatureMacroDefined
// section: 5.4.5.2
// statement: nvcc defines __CUDACC_DEVICE_ATOMIC_BUILTINS__ when the built-in atomic functions are supported
// skip.clang: the __nv_atomic_* built-ins and their macro are NVIDIA's (clang has neither)
#ifndef __CUDACC_DEVICE_ATOMIC_BUILTINS__
#error "__CUDACC_DEVICE_ATOMIC_BUILTINS__ is not defined"
#endif
__global__ void kernel(int* p) { __nv_atomic_fetch_add(p, 1, __NV_ATOMIC_RELAXED); }
