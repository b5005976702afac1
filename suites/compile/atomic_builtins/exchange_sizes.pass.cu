// rule: AtomicBuiltins.ExchangeSizes
// section: 5.4.5.2.8
// arch: sm_90
// statement: __nv_atomic_exchange supports any data type of size 4, 8 or 16 bytes (16 on compute capability 9.x)
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
struct alignas(16) Quad {
  unsigned long long lo, hi;
};

__global__ void kernel(float* f, double* d, Quad* q) {
  float fv = 1.0f, fo;
  __nv_atomic_exchange(f, &fv, &fo, __NV_ATOMIC_RELAXED);
  double dv = 1.0, dold;
  __nv_atomic_exchange(d, &dv, &dold, __NV_ATOMIC_RELAXED);
  Quad qv{1, 2}, qo;
  __nv_atomic_exchange(q, &qv, &qo, __NV_ATOMIC_RELAXED);
}
