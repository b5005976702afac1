// rule: RelaxedConstexpr.DeviceConstexprFromHostWithFlag
// section: PG12.9 18.8
// statement: with --expt-relaxed-constexpr, a __host__ function may call a __device__ constexpr function (its body is
//   kept for the host compilation)
// flags.nvcc: --expt-relaxed-constexpr
// skip.clang: --expt-relaxed-constexpr is an nvcc option (clang has no counterpart for explicitly annotated functions)
// skip.nvrtc: host code (NVRTC compiles device code only)
constexpr __device__ int D(int x) { return x + 1; }

int doit(int in) { return D(in); }
