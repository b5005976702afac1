// rule: AtomicBuiltins.LoadAcceptsNonReleaseOrders
// section: 5.4.5.2.10
// statement: __nv_atomic_load_n accepts the relaxed, consume, acquire and seq_cst orders
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
__global__ void kernel(int* p, int* out) {
  out[0] = __nv_atomic_load_n(p, __NV_ATOMIC_RELAXED);
  out[1] = __nv_atomic_load_n(p, __NV_ATOMIC_CONSUME);
  out[2] = __nv_atomic_load_n(p, __NV_ATOMIC_ACQUIRE);
  out[3] = __nv_atomic_load_n(p, __NV_ATOMIC_SEQ_CST);
}
