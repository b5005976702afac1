// rule: CppRestrictions.GlobalNoVariableArguments
// section: PG12.9 18.5.10.3
// statement: __global__ functions cannot have a variable number of arguments
// error: error: a __global__ function cannot have ellipsis
// error.clang: error: .*(variadic|ellipsis|variable number)
__global__ void kernel(int count, ...) {}
