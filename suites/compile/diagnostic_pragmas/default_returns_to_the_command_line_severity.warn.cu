// rule: DiagnosticPragmas.DefaultReturnsToTheCommandLineSeverity
// section: PG12.9 10.42
// statement: nv_diag_default returns a diagnostic to its normal severity "as modified by any command-line options":
//   with -diag-suppress 177 on the command line, #177 is reported after nv_diag_warning and suppressed again after
//   nv_diag_default
// flags.nvcc: -diag-suppress 177
// flags.nvrtc: -diag-suppress=177
// warning: (?s)\A(?!.*\(15\): warning).*\(13\): warning #177-D: variable "reported" was declared but never
//   referenced
// skip.clang: the nv_diag pragmas belong to nvcc's front end ("the pragmas only affect the nvcc CUDA frontend
//   compiler"); clang ignores them as unknown pragmas
#pragma nv_diag_warning 177
__device__ void after_warning() { int reported = 0; }
#pragma nv_diag_default 177
__device__ void after_default() { int suppressed = 0; }
