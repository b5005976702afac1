// rule: AtomicBuiltins.BitwiseSupportedTypes
// section: 5.4.5.2.3
// statement: __nv_atomic_fetch_and/or/xor support any integral type of size 4 or 8 bytes
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
__global__ void kernel(int* i, unsigned* u, long long* ll, unsigned long long* ull, long* l) {
  __nv_atomic_fetch_and(i, 1, __NV_ATOMIC_RELAXED);
  __nv_atomic_fetch_or(u, 1u, __NV_ATOMIC_RELAXED);
  __nv_atomic_fetch_xor(ll, 1ll, __NV_ATOMIC_RELAXED);
  __nv_atomic_and(ull, 1ull, __NV_ATOMIC_RELAXED);
  __nv_atomic_or(l, 1l, __NV_ATOMIC_RELAXED);
  __nv_atomic_xor(i, 1, __NV_ATOMIC_RELAXED);
}
