// rule: ExecutionSpace.GlobalCannotBeStructMember
// section: 5.4.1.1
// statement: a __global__ function cannot be a member of a class or struct
// error: error: A __global__ function or function template cannot be a member function
// error.clang: error: kernel function 'kernel' must be a free function or static member function
struct Launcher {
  __global__ void kernel();
};
