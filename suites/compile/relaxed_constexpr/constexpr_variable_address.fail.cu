// rule: ConstexprVariables.NoAddressInDevice
// section: PG12.9 18.5.22.5
// statement: device code cannot take the address of a constexpr host variable
// error: error: identifier "S1_t::qq" is undefined in device code
// error.clang: error: .*qq
// skip.nvrtc: host variable (NVRTC compiles device code only and takes namespace-scope variables as device
//   variables)
struct S1_t {
  static constexpr int qq = 100;
};

__device__ const int* foo() { return &S1_t::qq; }
