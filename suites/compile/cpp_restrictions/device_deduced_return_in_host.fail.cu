// rule: CppRestrictions.DeviceDeducedReturnTypeNotOutsideDevice
// section: PG12.9 18.5.23.1
// statement: the deduced return type of a __device__ function cannot be referenced outside device function bodies
// skip.nvrtc: host code (NVRTC compiles device code only)
// error: error: A non-constexpr __device__ function \("fn1"\) with "auto" deduced return type cannot be directly
//   referenced outside the bodies of device functions
// error.clang: error: .*fn1
__device__ auto fn1(int x) { return x; }

decltype(fn1(10)) g1;
