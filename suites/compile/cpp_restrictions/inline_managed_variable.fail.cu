// rule: CppRestrictions.InlineManagedVariableNeedsInternalLinkage
// section: PG12.9 18.5.24.1
// statement: in whole program compilation, a namespace scope inline __managed__ variable must have internal linkage
// error: error: An inline __device__(/__constant__/__managed__)? variable must have internal linkage when
// error.clang: error: .*inline
inline __managed__ int xxx;

__global__ void kernel(int* out) { *out = xxx; }
