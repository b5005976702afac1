// rule: CppRestrictions.NoGlobalInInlineUnnamedNamespace
// section: PG12.9 18.5.22.6.1
// statement: a __global__ function cannot be declared in namespace scope within an inline unnamed namespace
// skip.clang: clang's CUDA headers already open the unnamed namespace as non-inline, and C++ forbids reopening
//   it inline ([namespace.def]), so the case cannot be expressed
// error: error: A __global__ function or function template cannot be declared within an inline unnamed namespace
inline namespace {
namespace N2 {
__global__ void bar(void) {}
}
}  // namespace
