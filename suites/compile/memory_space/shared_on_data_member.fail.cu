// rule: MemorySpace.SharedNotOnDataMember
// section: PG12.9 18.5.3.1
// statement: the __shared__ memory space specifier is not allowed on class, struct and union data members
// error: error: attribute "__shared__" does not apply here
// error.clang: error: .*shared
struct Holder {
  __shared__ int value;
};
