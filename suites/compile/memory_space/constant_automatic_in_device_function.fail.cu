// rule: MemorySpace.ConstantNotAutomaticInDeviceFunction
// section: PG12.9 18.5.3.1
// statement: the __constant__ memory space specifier is not allowed on a variable declaration that is neither
//   extern nor static within a function that executes on the device
// error: error: an automatic "__constant__" variable declaration is not allowed inside a device function body
// error.clang: error: __constant__, __device__, and __managed__ are not allowed on non-static local variables
__device__ int device_function() {
  __constant__ int local = 1;
  return local;
}
