// rule: DiagnosticPragmas.PopRestoresTheStateThatPushSaved
// section: PG12.9 10.42
// statement: #pragma nv_diagnostic push saves the diagnostic pragma state and #pragma nv_diagnostic pop restores it
//   (the guide's example: suppressed for foo inside push/pop, reported for bar after the pop)
// warning: (?s)\A(?!.*\(13\): warning).*\(18\): warning #177-D: variable "i" was declared but never referenced
// note: the guide's example, in device functions so that NVRTC takes it too
// skip.clang: the nv_diag pragmas belong to nvcc's front end ("the pragmas only affect the nvcc CUDA frontend
//   compiler"); clang ignores them as unknown pragmas
#pragma nv_diagnostic push
#pragma nv_diag_suppress 177
__device__ void foo()
{
    int i=0;
}
#pragma nv_diagnostic pop
__device__ void bar()
{
    int i=0;
}
