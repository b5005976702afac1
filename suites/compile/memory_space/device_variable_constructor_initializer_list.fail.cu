// rule: MemorySpace.DeviceVariableConstructorHasEmptyInitializerList
// section: PG12.9 18.5.3.1
// statement: a constructor is empty only if its initializer list is empty: one with a mem-initializer makes its
//   class unusable as the type of a __device__ variable
// error: error: dynamic initialization is not supported for a __device__ variable
// error.clang: error: dynamic initialization is not supported for __device__, __constant__, .*and __managed__ variables
struct Counter {
  int value;
  __device__ Counter() : value(1) {}
};

__device__ Counter counter;
