// rule: CppFeatures.Cpp20TemplateLambdas
// section: PG12.9 18.4
// statement: template parameter lists on lambdas (C++20) are available in device code
// std: c++20
template <typename A, typename B>
constexpr bool same_type = false;
template <typename A>
constexpr bool same_type<A, A> = true;

__global__ void kernel(int* out) {
  auto generic = []<typename T>(T a) { return a + T(1); };
  static_assert(same_type<decltype(generic(1)), int> && same_type<decltype(generic(1.0)), double>,
                "T is deduced from the argument");
  // Its values, where the language computes them: a lambda is constexpr when it can be (C++17).
  static_assert(generic(1) == 2 && generic(2.5) == 3.5, "template lambda values");
  *out = generic(1);
}
