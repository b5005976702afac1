// rule: AtomicBuiltins.LoadNAnyType
// section: 5.4.5.2.10
// statement: __nv_atomic_load_n, like __nv_atomic_load, supports any data type of size 1, 2, 4 or 8 bytes, float
//   and double included
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
__global__ void kernel(char* c, short* s, float* f, double* d, double* out) {
  *out = __nv_atomic_load_n(c, __NV_ATOMIC_RELAXED) + __nv_atomic_load_n(s, __NV_ATOMIC_RELAXED) +
         __nv_atomic_load_n(f, __NV_ATOMIC_RELAXED) + __nv_atomic_load_n(d, __NV_ATOMIC_RELAXED);
}
