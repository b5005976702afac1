// rule: AtomicBuiltins.LoadRejectsRelease
// section: 5.4.5.2.10
// statement: the order of __nv_atomic_load cannot be __NV_ATOMIC_RELEASE
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
// error: error: atomic load's memory order cannot be release or acq_rel
__global__ void kernel(int* p, int* out) { *out = __nv_atomic_load_n(p, __NV_ATOMIC_RELEASE); }
