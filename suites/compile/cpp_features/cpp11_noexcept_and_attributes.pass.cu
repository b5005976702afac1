// rule: CppFeatures.Cpp11NoexceptAndAttributes
// section: PG12.9 18.1
// statement: noexcept, the standardized attribute syntax and __func__ (C++11) are available in device code
__device__ int safe(int x) noexcept { return x + 1; }

__global__ void kernel(int* out) {
  static_assert(noexcept(safe(1)), "noexcept operator");
  [[maybe_unused]] const char* name = __func__;
  *out = safe(*out);
}
