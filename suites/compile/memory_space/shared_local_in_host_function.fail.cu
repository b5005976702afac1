// rule: MemorySpace.SharedNotLocalInHostFunction
// section: PG12.9 18.5.3.1
// statement: the __shared__ memory space specifier is not allowed on a non-extern variable declaration within a
//   function that executes on the host
// error: error: a static "__shared__" variable declaration is not allowed inside a host function body
// error.clang: error: __shared__ local variables not allowed in __host__ functions
// skip.nvrtc: host code (NVRTC compiles device code only)
int host_function() {
  __shared__ int local;
  return 0;
}
