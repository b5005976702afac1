// rule: Attributes.LikelyUnlikelyInDeviceCode
// section: PG12.9 18.5.18
// statement: the [[likely]] and [[unlikely]] attributes are accepted in device code
// std: c++20
__device__ int foo(int i) {
  if (i < 10) [[likely]] {
    return 4;
  }
  if (i < 20) [[unlikely]] {
    return 1;
  }
  return 0;
}
