// rule: MemorySpace.SharedVariableNeedsEmptyDestructor
// section: PG12.9 18.5.3.1
// statement: a __shared__ variable definition cannot have a class type with a non-empty destructor
// error: error: dynamic initialization is not supported for .*__shared__ variable
// error.clang: error: initialization is not supported for __shared__ variables
struct Counter {
  int value;
  __device__ ~Counter() { value = 0; }
};

__global__ void kernel(int* out) {
  __shared__ Counter counter;
  *out = counter.value;
}
