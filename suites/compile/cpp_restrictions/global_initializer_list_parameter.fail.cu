// rule: CppRestrictions.GlobalNoInitializerListParameter
// section: PG12.9 18.5.22.8
// statement: a __global__ function or function template cannot have a parameter of type std::initializer_list
// skip.nvrtc: needs <initializer_list>, a host library header
// error: error: a __global__ function or function template cannot have a parameter with type std::initializer_list
// error.clang: error: .*initializer_list
#include <initializer_list>

__global__ void kernel(std::initializer_list<int> values) {}
