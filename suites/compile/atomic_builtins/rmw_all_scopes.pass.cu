// rule: AtomicBuiltins.ReadModifyWriteAcceptsEveryScope
// section: 5.4.5.2
// statement: the built-ins accept every thread scope (thread, block, cluster on sm_90, device, system)
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
__global__ void kernel(int* p) {
  __nv_atomic_add(p, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_THREAD);
  __nv_atomic_add(p, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
  __nv_atomic_add(p, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_CLUSTER);
  __nv_atomic_add(p, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_add(p, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_SYSTEM);
}
