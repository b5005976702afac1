// rule: MemorySpace.ExternSharedNotInWholeProgramMode
// section: PG12.9 18.5.3.1
// statement: in whole program compilation mode, __shared__ variables other than dynamically allocated ones cannot be
//   defined as external with extern
// error: error: .*extern
extern __shared__ int defined_elsewhere;

__global__ void kernel(int* out) { *out = defined_elsewhere; }
