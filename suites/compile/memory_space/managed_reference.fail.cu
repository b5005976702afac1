// rule: ManagedMemory.NoReferenceType
// section: 5.4.1.2.2
// statement: a __managed__ variable shall not have a reference type
// error: error: a __managed__ variable cannot have a reference type
// error.clang: error: .*managed
__device__ __managed__ int global_var = 10;
__device__ __managed__ int& reference = global_var;
