// rule: CppFeatures.Cpp11VariadicTemplates
// section: PG12.9 18.1
// statement: variadic templates and sizeof... (C++11) are available in device code
template <typename T>
__device__ T sum(T x) { return x; }
template <typename T, typename... Rest>
__device__ T sum(T x, Rest... rest) { return x + sum(rest...); }

template <typename... Ts>
struct Count {
  static constexpr int value = sizeof...(Ts);
};

__global__ void kernel(int* out) {
  static_assert(Count<int, float, char>::value == 3, "sizeof...");
  *out = sum(1, 2, 3, 4);
}
