// rule: MemorySpace.DeviceNotLocalInHostFunction
// section: PG12.9 18.5.3.1
// statement: the __device__ memory space specifier is not allowed on a non-extern variable declaration within a
//   function that executes on the host
// error: error: an automatic "__device__" variable declaration is not allowed inside a host function body
// error.clang: error: __constant__, __device__, and __managed__ are not allowed on non-static local variables
// skip.nvrtc: host code (NVRTC compiles device code only)
int host_function() {
  __device__ int local = 1;
  return local;
}
