// rule: ExecutionSpace.OperatorFunctionCannotBeGlobal
// section: PG12.9 18.5.10.8
// statement: an operator function cannot be a __global__ function
// error: error: An operator function cannot be a __global__ function
// error.clang: error: .*operator
struct Tag {};

__global__ void operator+(Tag, Tag) {}
