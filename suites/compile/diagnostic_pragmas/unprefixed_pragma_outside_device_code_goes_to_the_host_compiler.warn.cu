// rule: DiagnosticPragmas.UnprefixedPragmaOutsideDeviceCodeGoesToTheHostCompiler
// section: PG12.9 10.42
// statement: a diagnostic pragma without the nv_ prefix outside device code is passed to the host compiler (and not
//   reported by nvcc as unrecognized in device code)
// flags.nvcc: -Xcompiler -Wunknown-pragmas
// warning: (?s)\A(?!.*unrecognized #pragma in device code).*(ignoring .#pragma diag_suppress|unknown pragma ignored)
// note: -Wunknown-pragmas makes the host compiler (gcc: "ignoring '#pragma diag_suppress'", clang: "unknown pragma
//   ignored") say that it received the pragma
// skip.nvrtc: NVRTC compiles device code only and has no host compiler
// skip.clang: the nv_diag pragmas belong to nvcc's front end ("the pragmas only affect the nvcc CUDA frontend
//   compiler"); clang ignores them as unknown pragmas
#pragma diag_suppress 177
int host_function() { return 0; }
