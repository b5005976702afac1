// rule: GridConstant.NoPerThreadCopy
// section: 5.4.1.5
// statement: the compiler does not create a per-thread copy of a __grid_constant__ parameter whose address is taken:
//   the threads use the parameter's own address (no local-memory copy)
// ptx-no-match: \.local
// ptx-no-match: __local_depot
struct Params {
  int values[64];
};

__device__ __noinline__ int sum(const Params& p, int n) {
  int total = 0;
  for (int i = 0; i < n; ++i) total += p.values[i];
  return total;
}

__global__ void kernel(const __grid_constant__ Params p, int n, int* out) { *out = sum(p, n); }
