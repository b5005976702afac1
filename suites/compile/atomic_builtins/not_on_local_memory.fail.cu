// rule: AtomicBuiltins.NotOnLocalMemory
// section: 5.4.5.2
// statement: the built-in atomic functions cannot operate on local memory
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
// error: error: .*local memory
__device__ void foo(unsigned* out) {
  unsigned a = 1, b;
  __nv_atomic_load(&a, &b, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_SYSTEM);
  *out = b;
}
