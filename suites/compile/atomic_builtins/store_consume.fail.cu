// rule: AtomicBuiltins.StoreRejectsConsume
// section: 5.4.5.2.11
// statement: the order of __nv_atomic_store cannot be __NV_ATOMIC_CONSUME
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
// error: error: atomic store's memory order cannot be consume, acquire or acq_rel
__global__ void kernel(int* p) { __nv_atomic_store_n(p, 1, __NV_ATOMIC_CONSUME); }
