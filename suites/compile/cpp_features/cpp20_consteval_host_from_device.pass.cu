// rule: CppFeatures.ConstevalHostFunctionFromDevice
// section: PG12.9 18.5.25.4
// statement: a __device__ or __global__ function (and a __host__ __device__ one) can call a consteval host function
// std: c++20
// skip.nvrtc: host code (NVRTC compiles device code only)
// note: the section's text says "constexpr" where its title and example intend consteval (PG12.9 18.5.22.4 says a
//   constexpr function cannot be called across execution spaces by default)
namespace N1 {
consteval int hcallee() { return 10; }

__device__ int dfunc() { return hcallee(); }
__global__ void gfunc() { (void)hcallee(); }
__host__ __device__ int hdfunc() { return hcallee(); }
int hfunc() { return hcallee(); }
}  // namespace N1
