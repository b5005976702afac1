// rule: MemorySpace.ConstantNotOnDataMember
// section: PG12.9 18.5.3.1
// statement: the __constant__ memory space specifier is not allowed on class, struct and union data members
// error: error: attribute "__constant__" does not apply here
// error.clang: error: .*constant
struct Holder {
  __constant__ int value;
};
