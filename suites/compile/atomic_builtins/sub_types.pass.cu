// rule: AtomicBuiltins.SubSupportedTypes
// section: 5.4.5.2.2
// statement: __nv_atomic_fetch_sub and __nv_atomic_sub support int, unsigned, unsigned long long, float and double
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
__global__ void kernel(int* i, unsigned* u, unsigned long long* ull, float* f, double* d) {
  __nv_atomic_fetch_sub(i, 1, __NV_ATOMIC_RELAXED);
  __nv_atomic_fetch_sub(u, 1u, __NV_ATOMIC_RELAXED);
  __nv_atomic_fetch_sub(ull, 1ull, __NV_ATOMIC_RELAXED);
  __nv_atomic_fetch_sub(f, 1.0f, __NV_ATOMIC_RELAXED);
  __nv_atomic_sub(d, 1.0, __NV_ATOMIC_RELAXED);
}
