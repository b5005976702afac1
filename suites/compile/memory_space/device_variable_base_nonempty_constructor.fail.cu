// rule: MemorySpace.DeviceVariableBasesNeedEmptyConstructors
// section: PG12.9 18.5.3.1
// statement: a constructor is empty only if the default constructors of all base classes are empty: a class whose
//   base has a non-empty constructor cannot be the type of a __device__ variable
// error: error: dynamic initialization is not supported for a __device__ variable
// error.clang: error: dynamic initialization is not supported for __device__, __constant__, .*and __managed__ variables
struct Base {
  int value;
  __device__ Base() { value = 1; }
};

struct Derived : Base {
  __device__ Derived() {}
};

__device__ Derived derived;
