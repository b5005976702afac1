// rule: MemorySpace.ConstantNotOnParameter
// section: PG12.9 18.5.3.1
// statement: the __constant__ memory space specifier is not allowed on formal parameters
// error: error: attribute "__constant__" does not apply here
// error.clang: error: .*constant
__device__ int read(__constant__ int value) { return value; }
