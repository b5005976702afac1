// rule: ExecutionSpace.HostFunctionNotCallableFromDevice
// section: 5.4.1.1
// statement: a __host__ function (or one without specifier) is not callable from the device (Table 38)
// error: error: calling a __host__ function\("host_value\(\)"\) from a __device__ function\("device_value"\) is not
//   allowed
// error.clang: error: no matching function for call to 'host_value'
// skip.nvrtc: host code (NVRTC compiles device code only)
int host_value() { return 42; }

__device__ int device_value() { return host_value(); }
