// rule: Lambdas.InitializerListHostDeviceByDefault
// section: PG12.9 18.5.22.2
// statement: the member functions of std::initializer_list are __host__ __device__ by default: device code may use
//   them
// skip.nvrtc: needs <initializer_list>, a host library header
#include <initializer_list>

__device__ constexpr int foo(std::initializer_list<int> in) {
  int sum = 0;
  for (int v : in) sum += v;
  return sum + int(in.size());
}

__device__ int bar(void) {
  int i = 4;
  return foo({4, 5, 6}) + foo({i, 5, 6});
}

// What the member functions return, where the language computes it: a constant expression in device code.
__device__ void values_in_device_code() {
  static_assert(foo({4, 5, 6}) == 4 + 5 + 6 + 3, "begin(), end() and size() of the list");
  static_assert(std::initializer_list<int>{1, 2}.size() == 2, "size()");
}
