// rule: CppRestrictions.NoGlobalArgumentWithVirtualBase
// section: PG12.9 18.5.11.4
// statement: an object of a class derived from virtual base classes cannot be passed as an argument to a
//   __global__ function
// error: error: .*virtual
struct Base {
  int x;
};
struct Derived : virtual Base {
  int y;
};

__global__ void kernel(Derived d, int* out) { *out = d.y; }
