// rule: AtomicBuiltins.AddSupportedTypes
// section: 5.4.5.2.1
// statement: __nv_atomic_fetch_add and __nv_atomic_add support int, unsigned, unsigned long long, float and double
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
__global__ void kernel(int* i, unsigned* u, unsigned long long* ull, float* f, double* d) {
  __nv_atomic_fetch_add(i, 1, __NV_ATOMIC_RELAXED);
  __nv_atomic_fetch_add(u, 1u, __NV_ATOMIC_RELAXED);
  __nv_atomic_fetch_add(ull, 1ull, __NV_ATOMIC_RELAXED);
  __nv_atomic_fetch_add(f, 1.0f, __NV_ATOMIC_RELAXED);
  __nv_atomic_add(d, 1.0, __NV_ATOMIC_RELAXED);
}
