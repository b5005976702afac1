// rule: Lambdas.MoveForwardHostDeviceByDefault
// section: PG12.9 18.5.22.3
// statement: std::move and std::forward are __host__ __device__ by default: device code may call them
// skip.nvrtc: needs <utility>, a host library header
#include <utility>

struct Payload {
  int v;
};

template <typename T>
__device__ int take(T&& t) { return std::forward<T>(t).v; }

__device__ int use(Payload p) { return take(std::move(p)); }
