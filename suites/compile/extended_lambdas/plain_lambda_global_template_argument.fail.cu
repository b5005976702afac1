// rule: ExtendedLambdas.PlainLambdaNotGlobalTemplateArgument
// section: PG12.9 18.5.22.8
// statement: a __global__ function template instantiated from host code with the closure type of a lambda that is
//   not an extended lambda is an error (also for one at namespace scope)
// flags.nvcc: --extended-lambda
// skip.nvrtc: NVRTC 13.0 has no --extended-lambda option
// error: error: The closure type for a lambda \("lambda \[\]\(\)->void", defined at .*\) cannot be used in the template
//   argument type of a __global__ function template instantiation
// error.clang: error: .*(lambda|closure)
template <typename T>
__global__ void kernel(T in) {}

auto lam2 = [] __host__ __device__ {};

void foo_host(void) { kernel<<<1, 1>>>(lam2); }
