// rule: MemorySpace.DeviceVariableNoVirtualBaseClasses
// section: PG12.9 18.5.3.1
// statement: a constructor is not empty when its class has virtual base classes, so such a class cannot be the type
//   of a __device__ variable
// error: error: dynamic initialization is not supported for a __device__ variable
// error.clang: error: dynamic initialization is not supported for __device__, __constant__, .*and __managed__ variables
struct Base {
  int value;
};

struct Derived : virtual Base {
  __device__ Derived() {}
};

__device__ Derived derived;
