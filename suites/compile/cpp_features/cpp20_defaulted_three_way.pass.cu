// rule: CppFeatures.Cpp20DefaultedThreeWayComparison
// section: PG12.9 18.5.25.3
// statement: a defaulted operator<=> may be used through an implicitly-declared comparison in device code, given
//   --expt-relaxed-constexpr and a device-compatible std::strong_ordering (the guide's example)
// std: c++20
// flags.nvcc: --expt-relaxed-constexpr
// skip.nvrtc: needs the host's <compare> and --expt-relaxed-constexpr, which NVRTC has not
#include <compare>

struct S {
  int x, y, z;
  auto operator<=>(const S& rhs) const = default;
  __host__ __device__ bool operator<=>(int rhs) const { return false; }
};

__host__ __device__ bool f(S a, S b) {
  if (a <=> 1) return true;
  return a < b;
}

__global__ void kernel(bool* out) { *out = f(S{1, 2, 3}, S{1, 2, 4}); }
