// rule: ConstexprVariables.NoLongDoubleValueInDevice
// section: PG12.9 18.5.22.5
// statement: the value of a constexpr host variable can be used in device code only for scalar types other than
//   long double
// error: error: .*(long double|ld)
// skip.nvrtc: host variable (NVRTC compiles device code only and takes namespace-scope variables as device
//   variables)
constexpr long double ld = 1.5L;

__device__ double foo() { return static_cast<double>(ld); }
