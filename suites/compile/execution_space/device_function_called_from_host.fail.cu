// rule: ExecutionSpace.DeviceFunctionNotCallableFromHost
// section: 5.4.1.1
// statement: a __device__ function is not callable from the host (Table 38)
// error: error: calling a __device__ function\("device_value\(\)"\) from a __host__ function\("host_value"\) is not
//   allowed
// error.clang: error: no matching function for call to 'device_value'
// skip.nvrtc: host code (NVRTC compiles device code only)
__device__ int device_value() { return 42; }

int host_value() { return device_value(); }
