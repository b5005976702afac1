// rule: DiagnosticPragmas.WarningCannotDemoteAnError
// section: PG12.9 10.42
// statement: only a warning promoted to an error may be restored to a warning: #pragma nv_diag_warning of an
//   error's number leaves the error
// error: (?s)\A(?!.*invalid error number).*error: identifier "undefined_name" is undefined
// note: 20 is the front end's number of "identifier ... is undefined" (see suppress_cannot_silence_an_error)
// skip.clang: the nv_diag pragmas belong to nvcc's front end ("the pragmas only affect the nvcc CUDA frontend
//   compiler"); clang ignores them as unknown pragmas
#pragma nv_diag_warning 20
__device__ int read_undefined() { return undefined_name; }
