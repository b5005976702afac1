// rule: MemorySpace.ExternDeviceNotInWholeProgramMode
// section: PG12.9 18.5.3.1
// statement: in whole program compilation mode, __device__ variables cannot be defined as external with extern
// error: error: .*extern
extern __device__ int defined_elsewhere;

__global__ void kernel(int* out) { *out = defined_elsewhere; }
