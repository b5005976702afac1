// rule: Lambdas.DeviceDefinedClosureAsGlobalTemplateArgument
// section: PG12.9 18.5.22.8
// statement: lambdas defined in a __device__ function may instantiate a __global__ function template (launched
//   from the device), whatever their annotation
// flags.nvcc: -rdc=true --extended-lambda
// flags.clang: -fgpu-rdc
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
template <typename T>
__global__ void kernel(T in) {}

__device__ void foo_device(void) {
  kernel<<<1, 1>>>([] __device__ {});
  kernel<<<1, 1>>>([] __host__ __device__ {});
  kernel<<<1, 1>>>([] {});
}
