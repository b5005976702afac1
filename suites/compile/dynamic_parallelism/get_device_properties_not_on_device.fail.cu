// rule: DeviceRuntimeApi.NoGetDevicePropertiesOnDevice
// section: PG12.9 13.3.1.5
// statement: the catch-all cudaGetDeviceProperties() is not offered by the device runtime: properties must be queried
//   individually
// flags.nvcc: -rdc=true
// flags.nvrtc: -rdc=true
// flags.clang: -fgpu-rdc
// error: error: identifier "cudaGetDeviceProperties" is undefined
// error.clang: error: no matching function for call to 'cudaGetDeviceProperties'
__global__ void query(int* out) {
  cudaDeviceProp properties;
  cudaGetDeviceProperties(&properties, 0);
  *out = properties.major;
}
