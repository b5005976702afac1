// rule: CppFeatures.Cpp14GenericLambdas
// section: PG12.9 18.2
// statement: generic (polymorphic) lambda expressions (C++14) are available in device code; defined in a __global__
//   function, their operator() is __device__ (PG12.9 18.5.22.1)
// std: c++14
template <typename A, typename B>
constexpr bool same_type = false;
template <typename A>
constexpr bool same_type<A, A> = true;

__global__ void kernel(int* out) {
  auto generic = [](auto a, auto b) { return a + b; };
  static_assert(same_type<decltype(generic(1, 2)), int>, "operator() instantiated for int");
  static_assert(same_type<decltype(generic(0.5f, 0.5f)), float>, "operator() instantiated for float");
  *out = generic(1, 2) + int(generic(0.5f, 0.5f));
}
