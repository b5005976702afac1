// rule: ExtendedLambdas.AsGlobalTemplateArgument
// section: PG12.9 18.5.22.8
// statement: the closure type of an extended __device__ or __host__ __device__ lambda defined in a host function
//   may instantiate a __global__ function template
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
template <typename T>
__global__ void kernel(T in) { in(); }

void foo_host(void) {
  kernel<<<1, 1>>>([] __device__ {});
  kernel<<<1, 1>>>([] __host__ __device__ {});
}
