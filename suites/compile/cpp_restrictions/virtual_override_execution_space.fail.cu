// rule: CppRestrictions.OverrideMatchesExecutionSpace
// section: PG12.9 18.5.11.3
// statement: the execution space specifiers of an overriding virtual function must match those of the overridden
//   one
// error: error: execution space mismatch: overridden entity \(function "Base::value"\) is a __device__ function, but
//   overriding entity
// error.clang: error: non-virtual member function marked 'override' hides virtual member function
struct Base {
  __device__ virtual int value() const { return 1; }
};
struct Derived : Base {
  __host__ __device__ int value() const override { return 2; }
};
