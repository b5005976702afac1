// rule: GridConstant.RequiresNonReferenceParameter
// section: 5.4.1.5
// statement: a kernel parameter annotated __grid_constant__ must have a non-reference type
// error: error: a parameter annotated with __grid_constant__ must not have reference type
// error.clang: error: __grid_constant__ is only allowed on const-qualified kernel parameters
struct Params {
  int x;
};

__global__ void kernel(const __grid_constant__ Params& p) {}
