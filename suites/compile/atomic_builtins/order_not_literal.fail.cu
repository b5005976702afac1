// rule: AtomicBuiltins.OrderMustBeLiteral
// section: 5.4.5.2
// statement: the order argument of a built-in atomic function must be an integer literal, not a variable
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
// error: error: atomic operation's memory order argument is not an integer literal
__device__ int load(int* p, int order) { return __nv_atomic_load_n(p, order, __NV_THREAD_SCOPE_DEVICE); }
