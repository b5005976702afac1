// rule: MemorySpace.ManagedNotOnDataMember
// section: PG12.9 18.5.3.1
// statement: the __managed__ memory space specifier is not allowed on class, struct and union data members
// error: error: attribute "__managed__" does not apply here
// error.clang: error: .*managed
union Holder {
  __managed__ int value;
  float other;
};
