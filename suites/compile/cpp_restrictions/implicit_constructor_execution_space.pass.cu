// rule: CppRestrictions.ImplicitMemberExecutionSpaceIsUnionOfCallers
// section: PG12.9 18.5.10.2
// statement: an implicitly-declared constructor gets the union of its callers' execution spaces: Derived::Derived
//   is __device__ (called from foo), Other::Other __host__ __device__ (called from foo and bar)
// skip.nvrtc: host code (NVRTC compiles device code only)
class Base {
  int x;

 public:
  __host__ __device__ Base(void) : x(10) {}
};

class Derived : public Base {
  int y;
};

class Other : public Base {
  int z;
};

__device__ void foo(void) {
  Derived D1;
  Other D2;
}

__host__ void bar(void) { Other D3; }
