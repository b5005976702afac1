// rule: AtomicBuiltins.StoreAcceptsNonAcquireOrders
// section: 5.4.5.2.11
// statement: __nv_atomic_store_n accepts the relaxed, release and seq_cst orders
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
__global__ void kernel(int* p) {
  __nv_atomic_store_n(p, 1, __NV_ATOMIC_RELAXED);
  __nv_atomic_store_n(p, 2, __NV_ATOMIC_RELEASE);
  __nv_atomic_store_n(p, 3, __NV_ATOMIC_SEQ_CST);
}
