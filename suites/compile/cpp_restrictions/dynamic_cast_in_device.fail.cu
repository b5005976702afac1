// rule: CppRestrictions.NoDynamicCastInDeviceCode
// section: PG12.9 18.5.6
// statement: the dynamic_cast operator is not supported in device code
// error: error: The operator 'dynamic_cast' is not allowed in device code
// error.clang: error: .*dynamic_cast
struct Base {
  __device__ virtual ~Base() {}
};
struct Derived : Base {};

__device__ bool is_derived(Base* b) { return dynamic_cast<Derived*>(b) != nullptr; }
