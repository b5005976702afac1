// rule: DiagnosticPragmas.HostCompilerDiagnosticsAreUnaffected
// section: PG12.9 10.42
// statement: the pragmas only affect the nvcc CUDA front end, not the host compiler: nv_diag_suppress 1444 silences
//   the front end's "declared deprecated" warning while the host compiler still warns
// warning: (?s)\A(?!.*#1444-D).*deprecated.*\[-Wdeprecated-declarations\]
// note: without the pragma nvcc prints both #1444-D (the device side of the __host__ __device__ function) and the
//   host compiler's -Wdeprecated-declarations warning
// skip.nvrtc: NVRTC compiles device code only and has no host compiler
// skip.clang: the nv_diag pragmas belong to nvcc's front end ("the pragmas only affect the nvcc CUDA frontend
//   compiler"); clang ignores them as unknown pragmas
#pragma nv_diag_suppress 1444
[[deprecated("use another function")]] __host__ __device__ int old_function() { return 1; }
__host__ __device__ int both_sides() { return old_function(); }
