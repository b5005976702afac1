// rule: AtomicBuiltins.LoadSizes
// section: 5.4.5.2.10
// statement: __nv_atomic_load supports any data type of size 1, 2, 4, 8 or 16 bytes
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
struct alignas(16) Quad {
  unsigned long long lo, hi;
};

__global__ void kernel(unsigned char* c, unsigned short* s, float* f, double* d, Quad* q, Quad* out) {
  unsigned char cv;
  __nv_atomic_load(c, &cv, __NV_ATOMIC_RELAXED);
  unsigned short sv;
  __nv_atomic_load(s, &sv, __NV_ATOMIC_RELAXED);
  float fv;
  __nv_atomic_load(f, &fv, __NV_ATOMIC_RELAXED);
  double dv;
  __nv_atomic_load(d, &dv, __NV_ATOMIC_RELAXED);
  Quad qv;
  __nv_atomic_load(q, &qv, __NV_ATOMIC_ACQUIRE);
  out->lo = cv + sv + static_cast<unsigned long long>(fv + dv);
  out->hi = qv.hi;
}
