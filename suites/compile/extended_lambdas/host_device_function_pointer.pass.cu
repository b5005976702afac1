// rule: ExtendedLambdas.HostDeviceConvertsToFunctionPointerInHost
// section: PG12.9 18.7.2
// statement: an extended __host__ __device__ lambda converts to a function pointer in host code, and extended
//   lambdas convert to function pointers in device code
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
template <typename T>
__global__ void kern(T in) {
  int (*fp)(double) = in;
  fp(0);
  auto lam1 = [](double) { return 1; };
  fp = lam1;
  fp(0);
}

void foo(void) {
  auto lam_d = [] __device__(double) { return 1; };
  auto lam_hd = [] __host__ __device__(double) { return 1; };
  kern<<<1, 1>>>(lam_d);
  kern<<<1, 1>>>(lam_hd);
  int (*fp)(double) = lam_hd;
  (void)fp;
}
