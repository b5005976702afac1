// rule: CppRestrictions.HostDeviceStaticSharedRejectedInHostCompilation
// section: PG12.9 18.5.10.4
// statement: a static __shared__ variable in a __host__ __device__ function is an error during host compilation
// skip.nvrtc: NVRTC has no host compilation
// error: error: a static "__shared__" variable declaration is not allowed inside a host function body
// error.clang: error: .*__shared__
__host__ __device__ int f2() {
  static __shared__ int i2;
  return i2;
}
