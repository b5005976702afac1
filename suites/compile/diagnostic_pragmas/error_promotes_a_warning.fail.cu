// rule: DiagnosticPragmas.ErrorPromotesAWarningToAnError
// section: PG12.9 10.42
// statement: any diagnostic may be overridden to be an error: #pragma nv_diag_error 177 makes "declared but never
//   referenced" an error that stops the compilation
// error: error: variable "never_used" was declared but never referenced
// skip.clang: the nv_diag pragmas belong to nvcc's front end ("the pragmas only affect the nvcc CUDA frontend
//   compiler"); clang ignores them as unknown pragmas
#pragma nv_diag_error 177
__device__ void unused_variable() { int never_used = 0; }
