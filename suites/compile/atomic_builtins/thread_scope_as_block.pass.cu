// rule: AtomicBuiltins.ThreadScopeImplementedAsBlock
// section: 5.4.5.2
// statement: __NV_THREAD_SCOPE_THREAD is implemented using the wider __NV_THREAD_SCOPE_BLOCK scope (PTX .cta)
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
// ptx-match: \batom\.(?=[a-z0-9.]*\badd\b)(?=[a-z0-9.]*\bcta\b)
__global__ void kernel(int* p) { __nv_atomic_fetch_add(p, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_THREAD); }
