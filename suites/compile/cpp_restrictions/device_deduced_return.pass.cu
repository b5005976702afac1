// rule: CppRestrictions.DeviceDeducedReturnTypeInDeviceCode
// section: PG12.9 18.5.23.1
// statement: a __device__ function with deduced return type (auto, decltype(auto)) may be used in device code
__device__ auto fn1(int x) { return x; }
__device__ decltype(auto) fn2(int x) { return x; }

__device__ void device_fn1() {
  int (*p1)(int) = fn1;
  (void)p1;
  (void)fn2(1);
}
