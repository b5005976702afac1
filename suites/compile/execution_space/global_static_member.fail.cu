// rule: ExecutionSpace.GlobalCannotBeStaticMember
// section: PG12.9 18.5.11.2
// statement: static member functions cannot be __global__ functions
// error: error: A __global__ function or function template cannot be a member function
// error.clang: error: kernel function .* must be a free function
struct Launcher {
  static __global__ void kernel() {}
};
