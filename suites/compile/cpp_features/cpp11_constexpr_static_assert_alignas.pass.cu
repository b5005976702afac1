// rule: CppFeatures.Cpp11ConstexprStaticAssertAlignas
// section: PG12.9 18.1
// statement: generalized constant expressions, static assertions and alignment support (C++11) are available in
//   device code
__host__ __device__ constexpr int square(int x) { return x * x; }

struct alignas(16) Vec {
  float v[4];
};

__global__ void kernel(Vec* out) {
  static_assert(square(4) == 16, "constexpr evaluation");
  static_assert(alignof(Vec) == 16, "alignas");
  constexpr int n = square(2);
  for (int i = 0; i < n; ++i) out->v[i] = float(i);
}
