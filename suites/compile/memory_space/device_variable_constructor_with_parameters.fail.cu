// rule: MemorySpace.DeviceVariableConstructorTakesNoParameters
// section: PG12.9 18.5.3.1
// statement: a constructor is empty only if it has no parameters: a default constructor with a defaulted parameter
//   is not empty, so its class cannot be the type of a __device__ variable
// error: error: dynamic initialization is not supported for a __device__ variable
// error.clang: error: dynamic initialization is not supported for __device__, __constant__, .*and __managed__ variables
struct Counter {
  int value;
  __device__ Counter(int start = 0) {}
};

__device__ Counter counter;
