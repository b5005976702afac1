// rule: MemorySpace.DeviceVariableNoMemberInitializers
// section: PG12.9 18.5.3.1
// statement: a constructor is not empty when its class has non-static data member initializers, so such a class
//   cannot be the type of a __device__ variable
// error: error: dynamic initialization is not supported for a __device__ variable
// error.clang: error: dynamic initialization is not supported for __device__, __constant__, __shared__, and __managed__
//   variables
struct Counter {
  int value = 7;
  __device__ Counter() {}
};

__device__ Counter counter;
