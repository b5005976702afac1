// rule: GridConstant.ReadOnly
// section: 5.4.1.5
// statement: a __grid_constant__ parameter is read-only: modifying it does not compile ("s.x++; // Compile error")
// error: error: expression must be a modifiable lvalue
// error.clang: error: cannot assign to variable 'p' with const-qualified type 'const Params'
struct Params {
  int x;
};

__global__ void kernel(const __grid_constant__ Params p) { p.x++; }
