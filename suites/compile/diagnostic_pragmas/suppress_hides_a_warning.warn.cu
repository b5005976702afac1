// rule: DiagnosticPragmas.SuppressHidesAWarning
// section: PG12.9 10.42
// statement: #pragma nv_diag_suppress <number> suppresses the warning of that number
// warning: (?s)\A(?!.*#177-D).*warning #550-D: variable "only_set" was set but never used
// note: #177 ("declared but never referenced") must not appear; #550 ("set but never used"), not suppressed, is
//   the control that shows the compiler warns here at all
// skip.clang: the nv_diag pragmas belong to nvcc's front end ("the pragmas only affect the nvcc CUDA frontend
//   compiler"); clang ignores them as unknown pragmas
#pragma nv_diag_suppress 177
__device__ void unused_variable() { int never_used = 0; }
__device__ void set_but_unused() {
  int only_set;
  only_set = 1;
}
