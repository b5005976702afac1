// rule: AtomicBuiltins.CompareExchangeNAnyType
// section: 5.4.5.2.9
// statement: __nv_atomic_compare_exchange_n, like __nv_atomic_compare_exchange, supports any data type of size 2,
//   4 or 8 bytes, double included
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
__global__ void kernel(unsigned short* s, double* d, bool* ok) {
  unsigned short es = 0;
  ok[0] = __nv_atomic_compare_exchange_n(s, &es, (unsigned short)1, false, __NV_ATOMIC_RELAXED, __NV_ATOMIC_RELAXED);
  double ed = 0.0;
  ok[1] = __nv_atomic_compare_exchange_n(d, &ed, 1.0, false, __NV_ATOMIC_RELAXED, __NV_ATOMIC_RELAXED);
}
