// rule: Lambdas.DefaultArgumentAtNamespaceScopeIsHost
// section: PG12.9 18.5.22.1
// statement: a lambda in a default argument of a __device__ function at namespace scope has a __host__ closure (its
//   innermost enclosing function scope is none): the guide's f4 compiles as long as it is not called
// skip.nvrtc: host code (NVRTC compiles device code only)
__device__ void f4(int (*fp)() = [] { return 4; }) {}
