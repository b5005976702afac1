// rule: CppFeatures.Cpp11ClassFeatures
// section: PG12.9 18.1
// statement: delegating and inheriting constructors, non-static data member initializers, explicit conversion
//   operators, defaulted and deleted functions, override and final (C++11) are available in device code
struct Base {
  int x = 1;
  __device__ Base() : Base(7) {}
  __device__ explicit Base(int v) : x(v) {}
  __device__ virtual int get() const { return x; }
  __device__ explicit operator bool() const { return x != 0; }
  Base(const Base&) = default;
};

struct Derived final : Base {
  using Base::Base;
  __device__ int get() const override { return x + 1; }
  void forbidden() = delete;
};

__global__ void kernel(int* out) {
  Derived d(4);
  *out = bool(d) ? d.get() : 0;
}
