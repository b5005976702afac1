// rule: MemorySpace.DeviceVariableMemberArraysWithEmptyDestructorsAllowed
// section: PG12.9 18.5.3.1
// statement: a destructor is empty if, among the other conditions, the destructors of its class-type data members
//   "(or array thereof)" are empty: a class holding an array of a class with an empty destructor may be the type of
//   a __device__ variable
struct Inner {
  int value;
  __host__ __device__ ~Inner() {}
};

struct Outer {
  Inner inners[4];
  __host__ __device__ ~Outer() {}
};

__device__ Outer outer;

__global__ void kernel(int* out) { *out = outer.inners[3].value; }
