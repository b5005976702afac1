// rule: CppRestrictions.RttiInHostCode
// section: PG12.9 18.5.6
// statement: typeid, std::type_info and dynamic_cast are supported in host code
// skip.nvrtc: host code (NVRTC compiles device code only)
#include <typeinfo>

struct Base {
  virtual ~Base() {}
};
struct Derived : Base {};

bool check(Base* b) {
  const std::type_info& info = typeid(*b);
  return dynamic_cast<Derived*>(b) != nullptr && info == typeid(Derived);
}

__global__ void kernel() {}
