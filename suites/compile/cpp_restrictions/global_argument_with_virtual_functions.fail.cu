// rule: CppRestrictions.NoGlobalArgumentWithVirtualFunctions
// section: PG12.9 18.5.11.3
// statement: an object of a class with virtual functions cannot be passed as an argument to a __global__ function
// error: error: .*virtual
struct Shape {
  int sides;
  __host__ __device__ virtual int count() const { return sides; }
};

__global__ void kernel(Shape s, int* out) { *out = s.sides; }
