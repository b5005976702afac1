// rule: CppFeatures.Cpp20ThreeWayComparison
// section: PG12.9 18.5.25.3
// statement: the three-way comparison operator is supported in device code; a user-defined operator<=> can be
//   called from a __host__ __device__ function
// std: c++20
struct S {
  int x, y, z;
  __host__ __device__ constexpr bool operator<=>(int rhs) const { return x > rhs; }
};

__host__ __device__ constexpr bool f(S a) { return a <=> 1; }

// a <=> 1 calls the user-defined operator: x > 1.
static_assert(f(S{2, 0, 0}) && !f(S{1, 0, 0}), "the user-defined operator<=> is called");

__global__ void kernel(bool* out) { *out = f(S{2, 0, 0}); }
