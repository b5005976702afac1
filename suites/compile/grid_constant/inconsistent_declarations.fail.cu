// rule: GridConstant.ConsistentDeclarations
// section: 5.4.1.5
// statement: all declarations of a function must be consistent with respect to its __grid_constant__ parameters
// error: error: incompatible __grid_constant__ annotation for parameter p in function redeclaration
// error.clang: error: .*grid_constant
struct Params {
  int x;
};

__global__ void kernel(const Params p);
__global__ void kernel(const __grid_constant__ Params p) {}
