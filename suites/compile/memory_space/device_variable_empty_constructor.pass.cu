// rule: MemorySpace.DeviceVariableEmptyConstructorAllowed
// section: PG12.9 18.5.3.1
// statement: a __device__ variable may have a class type whose constructor is defined, has no parameters, an empty
//   initializer list and an empty body, in a class without virtual functions or member initializers
struct Counter {
  int value;
  __host__ __device__ Counter() {}
  __host__ __device__ ~Counter() {}
};

__device__ Counter counter;

__global__ void kernel(int* out) { *out = counter.value; }
