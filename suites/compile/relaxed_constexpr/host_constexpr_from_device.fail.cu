// rule: RelaxedConstexpr.HostConstexprNotCallableFromDeviceByDefault
// section: PG12.9 18.8
// statement: by default, a __host__-only constexpr function cannot be called from a __device__ function in a
//   context that does not need constant evaluation
// skip.nvrtc: host code (NVRTC compiles device code only)
// error: error: calling a constexpr __host__ function\("H"\) from a __device__ function\("dmain"\) is not allowed
// error.clang: error: .*'H'
constexpr int H() { return 0; }

__device__ int dmain() {
  int x = H();
  return x;
}
