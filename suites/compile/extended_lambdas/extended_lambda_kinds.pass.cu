// rule: ExtendedLambdas.KindsInHostFunction
// section: PG12.9 18.7
// statement: in a __host__ or __host__ __device__ function, [] __device__ {} is an extended __device__ lambda and
//   [] __host__ __device__ {} an extended __host__ __device__ lambda; [] __host__ {} is allowed (not extended)
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
void foo_host(void) {
  auto lam1 = [] {};
  auto lam2 = [] __device__ {};
  auto lam3 = [] __host__ __device__ {};
  auto lam4 = [] __host__ {};
}

__host__ __device__ void foo_host_device(void) {
  auto lam1 = [] {};
  auto lam2 = [] __device__ {};
  auto lam3 = [] __host__ __device__ {};
  auto lam4 = [] __host__ {};
}
