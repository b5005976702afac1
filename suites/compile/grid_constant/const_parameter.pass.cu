// rule: GridConstant.ConstParameter
// section: 5.4.1.5
// statement: a const-qualified non-reference parameter of a __global__ function may be annotated __grid_constant__
// flags.nvcc: -rdc=true
// flags.clang: -fgpu-rdc
// flags.nvrtc: -rdc=true
// note: the guide's example calls a function defined in another translation unit: separate compilation
struct Params {
  int x;
  mutable int y;
};

__device__ void external_function(const Params&);

__global__ void kernel(const __grid_constant__ Params p) { external_function(p); }
