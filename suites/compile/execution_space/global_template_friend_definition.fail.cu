// rule: ExecutionSpace.GlobalTemplateNotDefinedInFriendDeclaration
// section: PG12.9 18.5.10.7
// statement: a __global__ function template cannot be defined in a friend declaration
// error: error: A __global__ function or function template cannot be defined in a friend declaration
// error.clang: error: .*friend
struct Holder {
  template <typename T>
  friend __global__ void kernel(T) {}
};
