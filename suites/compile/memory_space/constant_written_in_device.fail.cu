// rule: MemorySpace.ConstantReadOnlyInDevice
// section: 5.4.1.2
// statement: __constant__ variables are read-only in device code (PG12.9 18.5.5.1: they cannot be assigned there)
// error: error: expression must be a modifiable lvalue
// error.clang: error: .*(const|read-only|__constant__)
__constant__ int scale;

__global__ void kernel() { scale = 2; }
