// rule: DiagnosticPragmas.OnceReportsADiagnosticOnce
// section: PG12.9 10.42
// statement: #pragma nv_diag_once <number> reports that diagnostic once: of three unreferenced variables only the
//   first is reported
// warning: (?s)\A(?!.*#177-D.*#177-D).*\(9\): warning #177-D: variable "first" was declared but never referenced
// skip.clang: the nv_diag pragmas belong to nvcc's front end ("the pragmas only affect the nvcc CUDA frontend
//   compiler"); clang ignores them as unknown pragmas
#pragma nv_diag_once 177
__device__ void one() { int first = 0; }
__device__ void two() { int second = 0; }
__device__ void three() { int third = 0; }
