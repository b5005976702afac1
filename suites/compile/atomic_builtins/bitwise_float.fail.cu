// rule: AtomicBuiltins.BitwiseRejectsFloat
// section: 5.4.5.2.3
// statement: __nv_atomic_fetch_and supports integral types only: a float operand is rejected
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
// error: error: For a logical atomic operation, the first argument cannot be any floating-point types
__global__ void kernel(float* f) { __nv_atomic_fetch_and(f, 1.0f, __NV_ATOMIC_RELAXED); }
