// rule: MemorySpace.DeviceNotOnParameter
// section: PG12.9 18.5.3.1
// statement: the __device__ memory space specifier is not allowed on formal parameters
// error: error: attribute "__device__" does not apply here
// error.clang: error: __constant__, __device__, and __managed__ are not allowed on non-static local variables
__device__ int read(__device__ int value) { return value; }
