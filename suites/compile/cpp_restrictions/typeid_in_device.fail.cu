// rule: CppRestrictions.NoTypeidInDeviceCode
// section: PG12.9 18.5.6
// statement: the typeid operator is not supported in device code
// error: error: The operator 'typeid' is not allowed in device code
// error.clang: error: .*typeid
// skip.nvrtc: needs <typeinfo>, a host library header
#include <typeinfo>

struct Base {
  virtual ~Base() {}
};

__device__ bool has_type(const Base& a) { return &typeid(a) != nullptr; }
