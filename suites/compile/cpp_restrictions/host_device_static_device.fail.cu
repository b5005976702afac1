// rule: CppRestrictions.HostDeviceStaticDeviceRejectedInHostCompilation
// section: PG12.9 18.5.10.4
// statement: a static __device__ variable in a __host__ __device__ function is an error during host compilation
// skip.nvrtc: NVRTC has no host compilation
// error: error: a static "__device__" variable declaration is not allowed inside a host function body
// error.clang: error: .*__device__
__host__ __device__ int f2() {
  static __device__ int d2;
  return d2;
}
