// rule: DiagnosticPragmas.WarningRestoresAPromotedWarning
// section: PG12.9 10.42
// statement: a warning promoted to an error may be restored to a warning (#pragma nv_diag_warning): the
//   compilation succeeds and warns
// warning: warning #177-D: variable "never_used" was declared but never referenced
// skip.clang: the nv_diag pragmas belong to nvcc's front end ("the pragmas only affect the nvcc CUDA frontend
//   compiler"); clang ignores them as unknown pragmas
#pragma nv_diag_error 177
#pragma nv_diag_warning 177
__device__ void unused_variable() { int never_used = 0; }
