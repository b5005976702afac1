// rule: CppFeatures.Cpp11AutoDecltypeTrailingReturn
// section: PG12.9 18.1
// statement: auto-typed variables, decltype and the new function declarator syntax (C++11) are available in device
//   code
template <typename A, typename B>
constexpr bool same_type = false;
template <typename A>
constexpr bool same_type<A, A> = true;

__device__ auto twice(int x) -> decltype(x * 2) { return x * 2; }
static_assert(same_type<decltype(twice(1)), int>, "the trailing return type is decltype(x * 2): int");

__global__ void kernel(int* out) {
  auto a = 2, b = 3;
  decltype(a + b) c = twice(a) + b;
  static_assert(same_type<decltype(a), int> && same_type<decltype(c), int>, "auto and decltype: int");
  *out = c;
}
