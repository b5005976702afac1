// rule: DiagnosticPragmas.OnePragmaTakesSeveralNumbers
// section: PG12.9 10.42
// statement: the pragmas take the form "#pragma nv_diag_xxx error_number, error_number ...": each number listed is
//   affected
// error: (?s)error: variable "never_used" was declared but never referenced.*error: variable "only_set" was set but
//   never used
// skip.clang: the nv_diag pragmas belong to nvcc's front end ("the pragmas only affect the nvcc CUDA frontend
//   compiler"); clang ignores them as unknown pragmas
#pragma nv_diag_error 177, 550
__device__ void unused_variable() { int never_used = 0; }
__device__ void set_but_unused() {
  int only_set;
  only_set = 1;
}
