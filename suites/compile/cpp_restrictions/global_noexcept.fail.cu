// rule: CppRestrictions.NoExceptionSpecificationOnGlobal
// section: PG12.9 18.5.7
// statement: exception specification is not supported for __global__ functions
// error: error: An exception specification is not allowed for a __global__ function or function template
// error.clang: error: .*(exception specification|noexcept)
__global__ void kernel(int* out) noexcept { *out = 1; }
