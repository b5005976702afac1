// rule: AtomicBuiltins.ClusterScopeOnSm90
// section: 5.4.5.2
// arch: sm_90
// statement: the thread scope __NV_THREAD_SCOPE_CLUSTER is supported on sm_90 (and higher)
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
// ptx-match: \.cluster\b
__global__ void kernel(int* p) { __nv_atomic_fetch_add(p, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_CLUSTER); }
