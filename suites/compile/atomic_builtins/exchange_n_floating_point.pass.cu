// rule: AtomicBuiltins.ExchangeNAnyFourOrEightByteType
// section: 5.4.5.2.8
// statement: __nv_atomic_exchange_n, like __nv_atomic_exchange, supports any data type of size 4 or 8 bytes,
//   float and double included
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
__global__ void kernel(float* f, double* d) {
  __nv_atomic_exchange_n(f, 1.0f, __NV_ATOMIC_RELAXED);
  __nv_atomic_exchange_n(d, 1.0, __NV_ATOMIC_RELAXED);
}
