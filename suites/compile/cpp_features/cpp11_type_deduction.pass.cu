// rule: CppFeatures.Cpp11AutoDecltypeTrailingReturn
// section: PG12.9 18.1
// statement: auto-typed variables, decltype and the new function declarator syntax (C++11) are available in device
//   code
template <typename A, typename B>
struct same_type {
  static constexpr bool value = false;
};
template <typename A>
struct same_type<A, A> {
  static constexpr bool value = true;
};

__device__ auto twice(int x) -> decltype(x * 2) { return x * 2; }
static_assert(same_type<decltype(twice(1)), int>::value, "the trailing return type is decltype(x * 2): int");

__global__ void kernel(int* out) {
  auto a = 2, b = 3;
  decltype(a + b) c = twice(a) + b;
  static_assert(same_type<decltype(a), int>::value && same_type<decltype(c), int>::value, "auto and decltype: int");
  *out = c;
}
