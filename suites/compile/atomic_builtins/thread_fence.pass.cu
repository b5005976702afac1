// rule: AtomicBuiltins.ThreadFenceOrdersAndScopes
// section: 5.4.5.2.12
// statement: __nv_atomic_thread_fence takes a memory order and a thread scope
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
__global__ void kernel() {
  __nv_atomic_thread_fence(__NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_BLOCK);
  __nv_atomic_thread_fence(__NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_CLUSTER);
  __nv_atomic_thread_fence(__NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST);
}
