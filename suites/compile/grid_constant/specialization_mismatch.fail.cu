// rule: GridConstant.SpecializationMatchesPrimary
// section: 5.4.1.5
// statement: a function template specialization must match the primary template with respect to __grid_constant__
//   parameters
// error: error: incompatible __grid_constant__ annotation for parameter p in function specialization
// error.clang: error: .*grid_constant
template <typename T>
__global__ void kernel(const __grid_constant__ T p) {}

template <>
__global__ void kernel<int>(const int p) {}
