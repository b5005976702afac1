// rule: ManagedMemory.NoConstQualifiedType
// section: PG12.9 18.5.3.2
// statement: a __managed__ variable shall not have a const-qualified type
// error: error: a __managed__ variable cannot have a const qualified type
// error.clang: error: .*managed
__device__ __managed__ const int const_var = 10;
