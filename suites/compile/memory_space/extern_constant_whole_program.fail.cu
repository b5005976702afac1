// rule: MemorySpace.ExternConstantNotInWholeProgramMode
// section: PG12.9 18.5.3.1
// statement: in whole program compilation mode, __constant__ variables cannot be defined as external with extern
// error: error: .*extern
extern __constant__ int defined_elsewhere;

__global__ void kernel(int* out) { *out = defined_elsewhere; }
