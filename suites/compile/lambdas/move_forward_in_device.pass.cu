// rule: Lambdas.MoveForwardHostDeviceByDefault
// section: PG12.9 18.5.22.3
// statement: std::move and std::forward are __host__ __device__ by default: device code may call them
// skip.nvrtc: needs <utility>, a host library header
#include <utility>

struct Payload {
  int v;
};

template <typename T>
__device__ constexpr int take(T&& t) { return std::forward<T>(t).v; }

__device__ constexpr int use(Payload p) { return take(std::move(p)); }

template <typename A, typename B>
constexpr bool same_type = false;
template <typename A>
constexpr bool same_type<A, A> = true;

// What they return, checked in device code: an rvalue reference, and the forwarded object's value.
__device__ void what_they_return() {
  Payload p{7};
  static_assert(same_type<decltype(std::move(p)), Payload&&>, "std::move gives T&&");
  static_assert(same_type<decltype(std::forward<Payload&>(p)), Payload&>, "std::forward<T&> gives T&");
  static_assert(use(Payload{7}) == 7, "the forwarded object's member");
}
