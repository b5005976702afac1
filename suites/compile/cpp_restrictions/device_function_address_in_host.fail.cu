// rule: CppRestrictions.NoDeviceFunctionAddressInHostCode
// section: PG12.9 18.5.10.5
// statement: it is not allowed to take the address of a __device__ function in host code
// skip.nvrtc: host code (NVRTC compiles device code only)
// error: error: .*(address|device_function)
// error.clang: error: reference to __device__ function 'device_function' in __host__ function
__device__ int device_function(int x) { return x; }

using Fn = int (*)(int);
Fn host_function() { return &device_function; }
