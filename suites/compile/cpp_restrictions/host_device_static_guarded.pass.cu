// rule: CppRestrictions.HostDeviceStaticGuardedByCudaArch
// section: PG12.9 18.5.10.4
// statement: in a __host__ __device__ function, a static variable with a memory space specifier is allowed when
//   only the device compilation (__CUDA_ARCH__ defined) sees it
__host__ __device__ int f2() {
  static int i1;
#ifdef __CUDA_ARCH__
  static __device__ int d1;
  return i1 + d1;
#else
  static int d0;
  return i1 + d0;
#endif
}
