// rule: AtomicBuiltins.ExchangeSixteenBytesNeedsSm90
// section: 5.4.5.2.8
// statement: the 16-byte __nv_atomic_exchange needs compute capability 9.x: it is rejected for sm_80
// arch: sm_80
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
// error: error: 128-bit atomic exchange or compare-and-exchange is supported on architecture sm_90 or above
struct alignas(16) Quad {
  unsigned long long lo, hi;
};

__global__ void kernel(Quad* q) {
  Quad value{1, 2}, old;
  __nv_atomic_exchange(q, &value, &old, __NV_ATOMIC_RELAXED);
}
