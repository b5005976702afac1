// rule: MemorySpace.DeviceVariableNeedsEmptyConstructor
// section: PG12.9 18.5.3.1
// statement: a __device__ variable definition cannot have a class type with a non-empty constructor
// error: error: dynamic initialization is not supported for a __device__ variable
// error.clang: error: dynamic initialization is not supported for __device__, __constant__, __shared__, and __managed__
//   variables
struct Counter {
  int value;
  __device__ Counter() { value = 1; }
};

__device__ Counter counter;
