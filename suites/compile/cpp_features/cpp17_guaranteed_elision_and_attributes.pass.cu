// rule: CppFeatures.Cpp17ElisionAndAttributes
// section: PG12.9 18.3
// statement: guaranteed copy elision, [[nodiscard]], [[fallthrough]], [[maybe_unused]] and if/switch initializers
//   (C++17) are available in device code
// std: c++17
struct NoCopy {
  int v;
  __device__ explicit NoCopy(int x) : v(x) {}
  NoCopy(const NoCopy&) = delete;
  NoCopy(NoCopy&&) = delete;
};

__device__ NoCopy make(int x) { return NoCopy(x); }
[[nodiscard]] __device__ int important() { return 4; }

__global__ void kernel(int* out, int selector) {
  NoCopy n = make(2);
  int r = 0;
  switch (int s = selector; s) {
    case 0:
      r += 1;
      [[fallthrough]];
    case 1:
      r += 2;
      break;
    default:
      break;
  }
  if ([[maybe_unused]] int unused = 0; selector > 5) r = 0;
  *out = n.v + r + important();
}
