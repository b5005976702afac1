// rule: MemorySpace.DeviceVariableMembersNeedEmptyConstructors
// section: PG12.9 18.5.3.1
// statement: a constructor is empty only if the default constructors of all its class-type data members are empty:
//   a class holding a member with a non-empty constructor cannot be the type of a __device__ variable
// error: error: dynamic initialization is not supported for a __device__ variable
// error.clang: error: dynamic initialization is not supported for __device__, __constant__, .*and __managed__ variables
struct Inner {
  int value;
  __device__ Inner() { value = 1; }
};

struct Outer {
  Inner inner;
  __device__ Outer() {}
};

__device__ Outer outer;
