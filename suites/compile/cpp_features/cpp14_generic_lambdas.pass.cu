// rule: CppFeatures.Cpp14GenericLambdas
// section: PG12.9 18.2
// statement: generic (polymorphic) lambda expressions (C++14) are available in device code; defined in a __global__
//   function, their operator() is __device__ (PG12.9 18.5.22.1)
// std: c++14
template <typename A, typename B>
struct same_type {
  static constexpr bool value = false;
};
template <typename A>
struct same_type<A, A> {
  static constexpr bool value = true;
};

__global__ void kernel(int* out) {
  auto generic = [](auto a, auto b) { return a + b; };
  static_assert(same_type<decltype(generic(1, 2)), int>::value, "operator() instantiated for int");
  static_assert(same_type<decltype(generic(0.5f, 0.5f)), float>::value, "operator() instantiated for float");
  *out = generic(1, 2) + int(generic(0.5f, 0.5f));
}
