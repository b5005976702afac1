// rule: DiagnosticPragmas.SuppressCannotSilenceAnError
// section: PG12.9 10.42
// statement: only warnings may have their severity suppressed: #pragma nv_diag_suppress of an error's number
//   leaves the error
// error: (?s)\A(?!.*invalid error number).*error: identifier "undefined_name" is undefined
// note: 20 is the front end's number of "identifier ... is undefined" (nvcc 13.0 prints no number with an error,
//   even with --display-error-number); the pattern also checks that the pragma took 20 as a known number (an
//   unknown one gets #1222-D "invalid error number")
// skip.clang: the nv_diag pragmas belong to nvcc's front end ("the pragmas only affect the nvcc CUDA frontend
//   compiler"); clang ignores them as unknown pragmas
#pragma nv_diag_suppress 20
__device__ int read_undefined() { return undefined_name; }
