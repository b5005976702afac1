// rule: CppFeatures.Cpp11AliasTemplatesUnrestrictedUnions
// section: PG12.9 18.1
// statement: alias templates, unrestricted unions, local and unnamed types as template arguments and extern
//   templates (C++11) are available in device code
template <typename T>
struct Box {
  T value;
};
template <typename T>
using BoxOf = Box<T>;

template <typename A, typename B>
constexpr bool same_type = false;
template <typename A>
constexpr bool same_type<A, A> = true;

static_assert(same_type<BoxOf<int>, Box<int>>, "an alias template names the same type");

template <typename T>
__device__ T identity(T v) { return v; }
extern template __device__ int identity<int>(int);
template __device__ int identity<int>(int);

struct WithCtor {
  int v;
  __device__ WithCtor() : v(2) {}
};
union Storage {
  WithCtor w;
  float f;
  __device__ Storage() : w() {}
};

__global__ void kernel(int* out) {
  struct Local {
    int n;
  };
  BoxOf<Local> box{{5}};
  Storage s;
  *out = identity(box.value.n) + s.w.v;
}
