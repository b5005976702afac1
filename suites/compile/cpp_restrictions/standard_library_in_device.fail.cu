// rule: CppRestrictions.StandardLibraryHostOnly
// section: PG12.9 18.5.8
// statement: the standard library is only supported in host code unless specified otherwise: a host library
//   function (std::strtol) cannot be called from device code
// skip.nvrtc: needs <cstdlib>, a host library header
// error: error: calling a __host__ function\("strtol"\) from a __device__ function\("parse"\) is not allowed
// error.clang: error: reference to __host__ function 'strtol' in __device__ function
#include <cstdlib>

__device__ long parse(const char* text) { return std::strtol(text, nullptr, 10); }
