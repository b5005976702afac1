// rule: AtomicBuiltins.CompareExchangeUsesStrongerOrder
// section: 5.4.5.2.9
// statement: __nv_atomic_compare_exchange picks the stronger of success_order and failure_order: relaxed success
//   with acquire failure is an acquire CAS
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
// ptx-match: \batom\.(?=[a-z0-9.]*\bcas\b)(?=[a-z0-9.]*\bacquire\b)
__global__ void kernel(int* i, bool* ok) {
  int expected = 0;
  *ok = __nv_atomic_compare_exchange_n(i, &expected, 1, false, __NV_ATOMIC_RELAXED, __NV_ATOMIC_ACQUIRE,
                                       __NV_THREAD_SCOPE_DEVICE);
}
