// rule: RelaxedConstexpr.HostConstexprFromDeviceWithFlag
// section: PG12.9 18.8
// statement: with --expt-relaxed-constexpr, a __device__ function may call a __host__ constexpr function with a
//   non-constant argument (device code is generated for it)
// flags.nvcc: --expt-relaxed-constexpr
// skip.clang: --expt-relaxed-constexpr is an nvcc option (clang has no counterpart for explicitly annotated functions)
// skip.nvrtc: host code (NVRTC compiles device code only)
constexpr __host__ int H(int x) { return x + 1; }

__device__ int doit(int in) {
  in = H(in);
  return in;
}
