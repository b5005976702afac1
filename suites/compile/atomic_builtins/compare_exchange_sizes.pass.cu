// rule: AtomicBuiltins.CompareExchangeSizes
// section: 5.4.5.2.9
// arch: sm_90
// statement: __nv_atomic_compare_exchange supports any data type of size 2, 4, 8 or 16 bytes (16 on 9.x)
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
struct alignas(16) Quad {
  unsigned long long lo, hi;
};

__global__ void kernel(unsigned short* s, float* f, double* d, Quad* q, bool* ok) {
  unsigned short es = 0, ds = 1;
  ok[0] = __nv_atomic_compare_exchange(s, &es, &ds, false, __NV_ATOMIC_RELAXED, __NV_ATOMIC_RELAXED);
  float ef = 0.0f, df = 1.0f;
  ok[1] = __nv_atomic_compare_exchange(f, &ef, &df, false, __NV_ATOMIC_RELAXED, __NV_ATOMIC_RELAXED);
  double ed = 0.0, dd = 1.0;
  ok[2] = __nv_atomic_compare_exchange(d, &ed, &dd, true, __NV_ATOMIC_ACQ_REL, __NV_ATOMIC_ACQUIRE);
  Quad eq{0, 0}, dq{1, 2};
  ok[3] = __nv_atomic_compare_exchange(q, &eq, &dq, false, __NV_ATOMIC_SEQ_CST, __NV_ATOMIC_SEQ_CST);
}
