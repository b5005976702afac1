// rule: AtomicBuiltins.ConsumeImplementedAsAcquire
// section: 5.4.5.2
// statement: __NV_ATOMIC_CONSUME is implemented using the stronger __NV_ATOMIC_ACQUIRE order (an acquire load)
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
// ptx-match: \bld\.acquire\b
__global__ void kernel(int* p, int* out) {
  *out = __nv_atomic_load_n(p, __NV_ATOMIC_CONSUME, __NV_THREAD_SCOPE_DEVICE);
}
