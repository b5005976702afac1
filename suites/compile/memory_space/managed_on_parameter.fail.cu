// rule: MemorySpace.ManagedNotOnParameter
// section: PG12.9 18.5.3.1
// statement: the __managed__ memory space specifier is not allowed on formal parameters
// error: error: attribute "__managed__" does not apply here
// error.clang: error: .*managed
__device__ int read(__managed__ int value) { return value; }
