// rule: CppFeatures.Cpp20Concepts
// section: PG12.9 18.4
// statement: concepts and requires clauses (C++20) are available in device code
// std: c++20
template <typename T>
constexpr bool is_integral = false;
template <>
constexpr bool is_integral<int> = true;

template <typename T>
concept Integral = is_integral<T>;

template <Integral T>
__device__ T twice(T x) { return 2 * x; }

template <typename T>
  requires(sizeof(T) == 4)
__device__ T same(T x) { return x; }

__global__ void kernel(int* out) { *out = twice(same(21)); }
