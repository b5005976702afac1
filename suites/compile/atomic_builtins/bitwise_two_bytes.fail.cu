// rule: AtomicBuiltins.BitwiseRejectsTwoByteIntegers
// section: 5.4.5.2.4
// statement: __nv_atomic_fetch_or supports integral types of size 4 or 8 bytes only: a 2-byte integer is rejected
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
// error: error: atomic operations and, or, xor, add, sub, min and max are valid only on objects of size 4, or 8
__global__ void kernel(short* s) { __nv_atomic_fetch_or(s, short(1), __NV_ATOMIC_RELAXED); }
