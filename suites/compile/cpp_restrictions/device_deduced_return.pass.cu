// rule: CppRestrictions.DeviceDeducedReturnTypeInDeviceCode
// section: PG12.9 18.5.23.1
// statement: a __device__ function with deduced return type (auto, decltype(auto)) may be used in device code
__device__ auto fn1(int x) { return x; }
__device__ decltype(auto) fn2(int x) { return x; }

template <typename A, typename B>
struct same_type {
  static constexpr bool value = false;
};
template <typename A>
struct same_type<A, A> {
  static constexpr bool value = true;
};

__device__ void device_fn1() {
  int (*p1)(int) = fn1;
  (void)p1;
  (void)fn2(1);
  static_assert(same_type<decltype(fn1(1)), int>::value && same_type<decltype(fn2(1)), int>::value,
                "the deduced return types: int (return x; with x an int)");
}
