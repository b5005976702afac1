// rule: AtomicBuiltins.MinRejectsFloat
// section: 5.4.5.2.6
// statement: __nv_atomic_fetch_min supports unsigned, int, unsigned long long and long long: a float is rejected
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
// error: error: atomic operations min and max are not supported on any floating-point types
__global__ void kernel(float* f) { __nv_atomic_fetch_min(f, 1.0f, __NV_ATOMIC_RELAXED); }
