// rule: CppFeatures.Cpp17LanguageFeatures
// section: PG12.9 18.3
// statement: if constexpr, fold expressions, structured bindings, inline variables, class template argument
//   deduction, constexpr lambdas and nested namespace definitions (C++17) are available in device code
// std: c++17
namespace outer::inner {
inline constexpr int scale = 3;
}

template <typename T>
struct Pair {
  T first, second;
};
template <typename T>
Pair(T, T) -> Pair<T>;

template <typename... Ts>
__device__ int sum(Ts... ts) { return (ts + ... + 0); }

template <typename T>
__device__ int kind(T) {
  if constexpr (sizeof(T) == 8) return 8;
  else return 4;
}

__global__ void kernel(int* out) {
  Pair p{1, 2};
  auto [a, b] = p;
  constexpr auto square = [](int x) { return x * x; };
  static_assert(square(3) == 9, "constexpr lambda");
  *out = sum(a, b, kind(1.0), kind(1)) * outer::inner::scale;
}
