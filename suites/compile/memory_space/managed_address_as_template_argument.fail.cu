// rule: ManagedMemory.AddressNotConstantExpression
// section: 5.4.1.2.2
// statement: the address of a __managed__ variable is not a constant expression
// error: error: expression must have a constant value
// error.clang: error: .*(constant|template argument)
// skip.nvrtc: host code (NVRTC compiles device code only)
__device__ __managed__ int global_var = 10;

template <int* Addr>
struct Holder {};

Holder<&global_var> holder;
