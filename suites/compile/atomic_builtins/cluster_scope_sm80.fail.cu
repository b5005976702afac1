// rule: AtomicBuiltins.ClusterScopeNotBeforeSm90
// section: 5.4.5.2
// statement: the thread scope __NV_THREAD_SCOPE_CLUSTER is rejected below sm_90 (here sm_80)
// arch: sm_80
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
// error: error: .*scope of cluster is supported on architecture sm_90 or above
__global__ void kernel(int* p) { __nv_atomic_fetch_add(p, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_CLUSTER); }
