// rule: AtomicBuiltins.ReadModifyWriteAcceptsEveryOrder
// section: 5.4.5.2
// statement: the read-modify-write built-ins (fetch_add ... exchange) accept every memory order
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
__global__ void kernel(int* p) {
  __nv_atomic_fetch_add(p, 1, __NV_ATOMIC_RELAXED);
  __nv_atomic_fetch_sub(p, 1, __NV_ATOMIC_CONSUME);
  __nv_atomic_fetch_and(p, 1, __NV_ATOMIC_ACQUIRE);
  __nv_atomic_fetch_or(p, 1, __NV_ATOMIC_RELEASE);
  __nv_atomic_fetch_xor(p, 1, __NV_ATOMIC_ACQ_REL);
  __nv_atomic_fetch_min(p, 1, __NV_ATOMIC_SEQ_CST);
  __nv_atomic_fetch_max(p, 1, __NV_ATOMIC_ACQ_REL);
  __nv_atomic_exchange_n(p, 1, __NV_ATOMIC_SEQ_CST);
}
