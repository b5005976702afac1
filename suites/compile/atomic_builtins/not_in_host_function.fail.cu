// rule: AtomicBuiltins.NotInHostFunction
// section: 5.4.5.2
// statement: the built-in atomic functions can only be used in device functions, not in a __host__ function
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
// skip.nvrtc: host code (NVRTC compiles device code only)
// error: error: atomic operations are not in a device function
__host__ void bar() {
  unsigned u1 = 1, u2 = 2;
  __nv_atomic_load(&u1, &u2, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_SYSTEM);
}
