// rule: CppRestrictions.DefaultedLaterDeclarationKeepsSpecifier
// section: PG12.9 18.5.22.10
// statement: a function defaulted on a later declaration keeps the execution space of its first declaration:
//   S2::S2 stays __host__ and cannot be called from a __device__ function
// skip.nvrtc: __host__ function (NVRTC compiles device code only)
// error: error: calling a __host__ function\("S2::S2\(\)"\) from a __device__ function\("foo2"\) is not allowed
// error.clang: error: no matching constructor for initialization of 'S2'
struct S2 {
  __host__ S2();
};
S2::S2() = default;

__device__ void foo2() { S2 s2; }
