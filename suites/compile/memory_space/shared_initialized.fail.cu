// rule: MemorySpace.SharedStaticCannotBeInitialized
// section: 5.4.1.2.1
// statement: a __shared__ variable of static size cannot be initialized in its declaration (PG12.9 18.5.5.1)
// error: error: initializer not allowed for __shared__ variable
// error.clang: error: initialization is not supported for __shared__ variables
__global__ void kernel(int* out) {
  __shared__ int counter = 0;
  *out = counter;
}
