// rule: AtomicBuiltins.CompareExchangeTakesReleasingFailureOrders
// section: 5.4.5.2.9
// statement: __nv_atomic_compare_exchange and __nv_atomic_compare_exchange_n name no restriction on failure_order
//   (unlike loads and stores, 5.4.5.2.10-11): the stronger of the two orders is used, so failure orders release and
//   acq_rel compile too
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
__global__ void kernel(int* p, bool* ok) {
  int expected = 0, desired = 1;
  ok[0] = __nv_atomic_compare_exchange_n(p, &expected, 1, false, __NV_ATOMIC_RELAXED, __NV_ATOMIC_RELEASE,
                                         __NV_THREAD_SCOPE_DEVICE);
  ok[1] = __nv_atomic_compare_exchange(p, &expected, &desired, false, __NV_ATOMIC_SEQ_CST, __NV_ATOMIC_ACQ_REL,
                                       __NV_THREAD_SCOPE_BLOCK);
}
