// rule: DiagnosticPragmas.DefaultRestoresTheNormalSeverity
// section: PG12.9 10.42
// statement: #pragma nv_diag_default returns a diagnostic to the severity it had before any pragma (the guide's
//   example: "declared but never referenced" suppressed for foo, reported again for bar)
// warning: (?s)\A(?!.*\(13\): warning).*\(18\): warning #177-D: variable "i" was declared but never referenced
// note: the guide's example, in device functions so that NVRTC takes it too: no warning for foo (line 13), #177
//   for bar (line 18)
// skip.clang: the nv_diag pragmas belong to nvcc's front end ("the pragmas only affect the nvcc CUDA frontend
//   compiler"); clang ignores them as unknown pragmas
#pragma nv_diag_suppress 177
__device__ void foo()
{
    int i=0;
}
#pragma nv_diag_default 177
__device__ void bar()
{
    int i=0;
}
