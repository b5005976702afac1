// rule: AtomicBuiltins.OrderAndScopeEnumerators
// section: 5.4.5.2
// statement: the memory orders are the enumerators __NV_ATOMIC_RELAXED ... __NV_ATOMIC_SEQ_CST (0 to 5) and the
//   thread scopes __NV_THREAD_SCOPE_THREAD ... __NV_THREAD_SCOPE_SYSTEM (0 to 4), in the guide's order
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
static_assert(__NV_ATOMIC_RELAXED == 0 && __NV_ATOMIC_CONSUME == 1 && __NV_ATOMIC_ACQUIRE == 2 &&
              __NV_ATOMIC_RELEASE == 3 && __NV_ATOMIC_ACQ_REL == 4 && __NV_ATOMIC_SEQ_CST == 5, "orders");
static_assert(__NV_THREAD_SCOPE_THREAD == 0 && __NV_THREAD_SCOPE_BLOCK == 1 && __NV_THREAD_SCOPE_CLUSTER == 2 &&
              __NV_THREAD_SCOPE_DEVICE == 3 && __NV_THREAD_SCOPE_SYSTEM == 4, "scopes");
