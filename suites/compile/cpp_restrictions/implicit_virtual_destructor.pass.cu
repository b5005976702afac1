// rule: CppRestrictions.ImplicitVirtualDestructorInheritsExecutionSpace
// section: PG12.9 18.5.10.2
// statement: an implicitly-declared virtual destructor takes the execution spaces of the destructors it overrides:
//   ~Derived1 is __host__ __device__ and ~Derived2 is __device__
struct Base1 {
  virtual __host__ __device__ ~Base1() {}
};
struct Derived1 : Base1 {};

struct Base2 {
  virtual __device__ ~Base2();
};
__device__ Base2::~Base2() = default;
struct Derived2 : Base2 {};

__global__ void kernel() {
  Derived1 d1;
  Derived2 d2;
}
