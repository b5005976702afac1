// rule: CppRestrictions.DefaultedFirstDeclarationIgnoresSpecifier
// section: PG12.9 18.5.22.10
// statement: an execution space specifier on a function explicitly defaulted on its first declaration is ignored
//   (warned about); the space is inferred, so S1::S1 is usable from a __device__ function
// warning: warning.*(ignored|__host__)
struct S1 {
  __host__ S1() = default;
};

__device__ void foo1() { S1 s1; }
