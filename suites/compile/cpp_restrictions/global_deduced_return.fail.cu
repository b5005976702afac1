// rule: CppRestrictions.GlobalNoDeducedReturnType
// section: PG12.9 18.5.23.1
// statement: a __global__ function cannot have a deduced return type
// error: error: a __global__ function must not have a deduced return type
// error.clang: error: .*(deduced|auto)
__global__ auto kernel() {}
