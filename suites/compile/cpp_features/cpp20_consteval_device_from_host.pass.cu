// rule: CppFeatures.ConstevalDeviceFunctionFromHost
// section: PG12.9 18.5.25.4
// statement: a __host__ function (and a __host__ __device__ one) can call a consteval __device__ function
// std: c++20
// skip.nvrtc: host code (NVRTC compiles device code only)
namespace N2 {
consteval __device__ int dcallee() { return 10; }

__device__ int dfunc() { return dcallee(); }
__global__ void gfunc() { (void)dcallee(); }
__host__ __device__ int hdfunc() { return dcallee(); }
int hfunc() { return dcallee(); }
}  // namespace N2
