// rule: DeviceRuntimeApi.NoTextureObjectCreationOnDevice
// section: PG12.9 13.3.1.6.2
// statement: the device runtime does not allow creation or destruction of texture or surface objects from device code
// flags.nvcc: -rdc=true
// flags.nvrtc: -rdc=true
// flags.clang: -fgpu-rdc
// error: (?s)error: identifier "cudaCreateTextureObject" is undefined.*error: identifier "cudaDestroyTextureObject"
//   is undefined
// error.clang: (?s)no matching function for call to 'cudaCreateTextureObject'.*no matching function for call to
//   'cudaDestroyTextureObject'
__global__ void make_texture(cudaTextureObject_t* texture, const cudaResourceDesc* resource,
                             const cudaTextureDesc* description) {
  cudaCreateTextureObject(texture, resource, description, nullptr);
  cudaDestroyTextureObject(*texture);
}
