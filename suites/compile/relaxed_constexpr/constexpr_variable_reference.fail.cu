// rule: ConstexprVariables.NoReferenceInDevice
// section: PG12.9 18.5.22.5
// statement: device code cannot contain a reference to a constexpr host variable
// error: error: identifier "xxx" is undefined in device code
// error.clang: error: .*xxx
// skip.nvrtc: host variable (NVRTC compiles device code only and takes namespace-scope variables as device
//   variables)
constexpr int xxx = 10;

__device__ int foo() {
  const int& v2 = xxx;
  return v2;
}
