// rule: DynamicParallelismCompile.DeviceLaunchCompilesWithRelocatableDeviceCode
// section: PG12.9 13.3.1.1
// statement: kernels may be launched from the device with the <<<Dg, Db, Ns, S>>> syntax, including the named streams
// flags.nvcc: -rdc=true
// flags.nvrtc: -rdc=true
// flags.clang: -fgpu-rdc
__global__ void child(int* out) { *out = 1; }
__global__ void parent(int* out) {
  child<<<1, 1>>>(out);
  child<<<dim3(1), dim3(1), 0, cudaStreamFireAndForget>>>(out);
  child<<<dim3(1), dim3(1), 0, cudaStreamTailLaunch>>>(out);
}
