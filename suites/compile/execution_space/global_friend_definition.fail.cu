// rule: ExecutionSpace.GlobalNotDefinedInFriendDeclaration
// section: PG12.9 18.5.10.7
// statement: a __global__ function cannot be defined in a friend declaration
// error: error: A __global__ function or function template cannot be defined in a friend declaration
// error.clang: error: .*friend
struct Holder {
  friend __global__ void kernel(Holder) {}
};
