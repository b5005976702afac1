// rule: RelaxedConstexpr.DeviceConstexprNotCallableFromHostByDefault
// section: PG12.9 18.8
// statement: by default, a __device__-only constexpr function cannot be called from a __host__ function in a
//   context that does not need constant evaluation
// skip.nvrtc: host code (NVRTC compiles device code only)
// error: error: calling a constexpr __device__ function\("D\(\)"\) from a __host__ function\("main"\) is not allowed
// error.clang: error: no matching function for call to 'D'
constexpr __device__ int D() { return 0; }

int main() {
  int x = D();
  return x;
}
