// rule: DiagnosticPragmas.UnprefixedPragmaInDeviceCodeIsUnrecognized
// section: PG12.9 10.42
// statement: diagnostic pragmas without the nv_ prefix are removed since CUDA 12.0: inside device code they get the
//   warning "unrecognized #pragma in device code"
// warning: warning #\d+-D: unrecognized #pragma in device code
// skip.clang: the nv_diag pragmas belong to nvcc's front end ("the pragmas only affect the nvcc CUDA frontend
//   compiler"); clang ignores them as unknown pragmas
__device__ void unused_variable() {
#pragma diag_suppress 177
  int never_used = 0;
}
