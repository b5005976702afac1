// rule: MemorySpace.SharedNotOnParameter
// section: PG12.9 18.5.3.1
// statement: the __shared__ memory space specifier is not allowed on formal parameters
// error: error: attribute "__shared__" does not apply here
// error.clang: error: .*shared
__global__ void kernel(__shared__ int value) {}
