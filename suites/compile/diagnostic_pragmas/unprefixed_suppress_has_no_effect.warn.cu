// rule: DiagnosticPragmas.UnprefixedSuppressNoLongerSuppresses
// section: PG12.9 10.42
// statement: diagnostic pragmas without the nv_ prefix are removed since CUDA 12.0: #pragma diag_suppress 177 no
//   longer suppresses "declared but never referenced" (use the nv_ pragmas instead)
// warning: warning #177-D: variable "never_used" was declared but never referenced
// skip.clang: the nv_diag pragmas belong to nvcc's front end ("the pragmas only affect the nvcc CUDA frontend
//   compiler"); clang ignores them as unknown pragmas
#pragma diag_suppress 177
__device__ void unused_variable() { int never_used = 0; }
