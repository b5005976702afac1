// rule: AtomicBuiltins.AddressNotTaken
// section: 5.4.5.2
// statement: the address of a built-in atomic function cannot be taken
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
// error: error: nv atomic function must be called directly
__device__ void foo(int* p) {
  auto f = &__nv_atomic_fetch_add;
  (void)f;
}
