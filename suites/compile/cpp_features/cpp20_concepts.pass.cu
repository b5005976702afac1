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
__host__ __device__ constexpr T twice(T x) { return 2 * x; }

template <typename T>
  requires(sizeof(T) == 4)
__host__ __device__ constexpr T same(T x) { return x; }

// What the constraints mean: a type satisfies them or not, and the constrained templates compute their values.
template <typename T>
concept Twiceable = requires(T x) { twice(x); };
template <typename T>
concept Sameable = requires(T x) { same(x); };
static_assert(Integral<int> && !Integral<float>, "the concept holds exactly for int");
static_assert(Twiceable<int> && !Twiceable<float>, "the constrained template takes int, not float");
static_assert(Sameable<float> && !Sameable<double>, "the requires clause admits 4-byte types only");
static_assert(twice(same(21)) == 42, "the kernel's value");

__global__ void kernel(int* out) { *out = twice(same(21)); }
