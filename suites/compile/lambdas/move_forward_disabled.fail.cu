// rule: Lambdas.MoveForwardHostOnlyWithFlag
// section: PG12.9 18.5.22.3
// statement: with --no-host-device-move-forward, std::move and std::forward are __host__ and cannot be called from
//   device code
// flags.nvcc: --no-host-device-move-forward
// skip.clang: --no-host-device-move-forward is an nvcc option
// skip.nvrtc: needs <utility>, a host library header
// error: error: calling a constexpr __host__ function\("move"\) from a __device__ function\("use"\) is not allowed
#include <utility>

struct Payload {
  int v;
};

__device__ Payload use(Payload p) { return std::move(p); }
