// rule: ManagedMemory.NotAutomaticInDeviceFunction
// section: PG12.9 18.5.3.2
// statement: a __managed__ variable declaration without extern or static linkage is not allowed within a device
//   function
// error: error: an automatic "__managed__" variable declaration is not allowed inside a device function body
// error.clang: error: .*managed
__device__ int device_function() {
  __managed__ int local = 1;
  return local;
}
