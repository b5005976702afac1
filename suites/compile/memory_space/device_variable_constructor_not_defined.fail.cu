// rule: MemorySpace.DeviceVariableConstructorIsDefined
// section: PG12.9 18.5.3.1
// statement: a constructor is empty at a point of the translation unit only if it has been defined: one declared
//   but not defined there makes its class unusable as the type of a __device__ variable
// error: error: dynamic initialization is not supported for a __device__ variable
// error.clang: error: dynamic initialization is not supported for __device__, __constant__, .*and __managed__ variables
struct Counter {
  int value;
  __device__ Counter();
};

__device__ Counter counter;
