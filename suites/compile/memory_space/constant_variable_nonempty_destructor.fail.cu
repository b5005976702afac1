// rule: MemorySpace.ConstantVariableNeedsEmptyDestructor
// section: PG12.9 18.5.3.1
// statement: a __constant__ variable definition cannot have a class type with a non-empty destructor
// error: error: dynamic initialization is not supported for a __constant__ variable
// error.clang: error: dynamic initialization is not supported for __device__, __constant__, .*and __managed__ variables
struct Counter {
  int value;
  __host__ __device__ ~Counter() { value = 0; }
};

__constant__ Counter counter;
