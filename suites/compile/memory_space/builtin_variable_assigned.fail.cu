// rule: BuiltinVariables.NotAssignable
// section: PG12.9 18.5.5.1
// statement: it is not allowed to assign values to any of the built-in variables
// error: error: expression must be a modifiable lvalue
// error.clang: error: no setter defined for property 'x'
__global__ void kernel() { threadIdx.x = 0; }
