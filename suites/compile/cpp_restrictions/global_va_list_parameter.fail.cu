// rule: CppRestrictions.GlobalNoVaListParameter
// section: PG12.9 18.5.22.8
// statement: a __global__ function or function template cannot have a parameter of type va_list (here
//   __builtin_va_list, which <cstdarg>'s va_list names)
// skip.nvrtc: NVRTC has no va_list (nor __builtin_va_list)
// error: error: A __global__ function or function template cannot have a parameter with va_list type
// error.clang: error: .*va_list
__global__ void kernel(__builtin_va_list args) {}
