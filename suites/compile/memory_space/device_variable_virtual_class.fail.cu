// rule: MemorySpace.DeviceVariableNoVirtualFunctions
// section: PG12.9 18.5.3.1
// statement: a constructor is not empty when its class has virtual functions, so such a class cannot be the type
//   of a __device__ variable
// error: error: dynamic initialization is not supported for a __device__ variable
// error.clang: error: dynamic initialization is not supported for __device__, __constant__, __shared__, and __managed__
//   variables
struct Shape {
  __device__ Shape() {}
  __device__ virtual int sides() const { return 0; }
};

__device__ Shape shape;
