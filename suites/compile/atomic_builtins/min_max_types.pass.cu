// rule: AtomicBuiltins.MinMaxSupportedTypes
// section: 5.4.5.2.6
// statement: __nv_atomic_fetch_min/max support unsigned, int, unsigned long long and long long
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
__global__ void kernel(unsigned* u, int* i, unsigned long long* ull, long long* ll) {
  __nv_atomic_fetch_min(u, 1u, __NV_ATOMIC_RELAXED);
  __nv_atomic_fetch_max(i, 1, __NV_ATOMIC_RELAXED);
  __nv_atomic_min(ull, 1ull, __NV_ATOMIC_RELAXED);
  __nv_atomic_max(ll, 1ll, __NV_ATOMIC_RELAXED);
}
