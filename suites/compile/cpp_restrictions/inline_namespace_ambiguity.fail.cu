// rule: CppRestrictions.InlineNamespaceNameClashFails
// section: PG12.9 18.5.22.6
// statement: a __device__ variable defined in an inline namespace and another of the same name in the enclosing
//   namespace make the host compilation fail (an ambiguous reference in the code nvcc generates)
// skip.clang: describes nvcc's generated host code; clang generates none
// skip.nvrtc: describes nvcc's generated host code; NVRTC has no host compilation
// error: error: reference to .Gvar. is ambiguous
__device__ int Gvar;
inline namespace N1 {
__device__ int Gvar;
}
