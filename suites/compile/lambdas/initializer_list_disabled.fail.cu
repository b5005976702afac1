// rule: Lambdas.InitializerListHostOnlyWithFlag
// section: PG12.9 18.5.22.2
// statement: with --no-host-device-initializer-list, the member functions of std::initializer_list are __host__
//   and cannot be called from device code
// flags.nvcc: --no-host-device-initializer-list
// skip.clang: --no-host-device-initializer-list is an nvcc option
// skip.nvrtc: needs <initializer_list>, a host library header
// error: error: calling a constexpr __host__ function\("size"\) from a __device__ function\("foo"\) is not allowed
#include <initializer_list>

__device__ int foo(std::initializer_list<int> in) { return int(in.size()); }
