// rule: AtomicBuiltins.ExchangeRejectsTwoBytes
// section: 5.4.5.2.8
// statement: __nv_atomic_exchange supports sizes 4, 8 and 16 bytes: a 2-byte type is rejected
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
// error: error: atomic exchange is valid only on objects of size 4, 8 or 16 bytes
__global__ void kernel(unsigned short* p) { __nv_atomic_exchange_n(p, (unsigned short)1, __NV_ATOMIC_RELAXED); }
