// rule: CppRestrictions.DeviceDeducedReturnTypeInDeviceCode
// section: PG12.9 18.5.23.1
// statement: a __device__ function with deduced return type (auto, decltype(auto)) may be used in device code
__device__ auto fn1(int x) { return x; }
__device__ decltype(auto) fn2(int x) { return x; }

template <typename A, typename B>
constexpr bool same_type = false;
template <typename A>
constexpr bool same_type<A, A> = true;

__device__ void device_fn1() {
  int (*p1)(int) = fn1;
  (void)p1;
  (void)fn2(1);
  static_assert(same_type<decltype(fn1(1)), int> && same_type<decltype(fn2(1)), int>,
                "the deduced return types: int (return x; with x an int)");
}
