// rule: AtomicBuiltins.DefaultScopeIsSystem
// section: 5.4.5.2.1
// statement: the scope argument defaults to __NV_THREAD_SCOPE_SYSTEM (PTX scope .sys)
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
// ptx-match: \batom\.(?=[a-z0-9.]*\badd\b)(?=[a-z0-9.]*\bsys\b)
__global__ void kernel(int* p) { __nv_atomic_fetch_add(p, 1, __NV_ATOMIC_RELAXED); }
