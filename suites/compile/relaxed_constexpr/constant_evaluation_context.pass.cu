// rule: RelaxedConstexpr.CrossSpaceCallInConstantEvaluation
// section: PG12.9 18.8
// statement: with --expt-relaxed-constexpr, a cross-execution-space call to a constexpr function is supported where
//   constant evaluation is required, e.g. the initializer of a constexpr variable
// flags.nvcc: --expt-relaxed-constexpr
// skip.clang: --expt-relaxed-constexpr is an nvcc option (clang has no counterpart for explicitly annotated functions)
// skip.nvrtc: host code (NVRTC compiles device code only)
constexpr __host__ int H(int x) { return x + 1; }
__global__ void doit() {
  constexpr int val = H(1);
  static_assert(val == 2, "evaluated at compile time");
}

constexpr __device__ int D(int x) { return x + 1; }
int main() {
  constexpr int val = D(1);
  static_assert(val == 2, "evaluated at compile time");
}
