// rule: LaunchBounds.MaxThreadsIsMaxntid
// section: 5.4.3.2
// statement: maxThreadsPerBlock of __launch_bounds__ compiles to the .maxntid PTX directive
// ptx-match: \.maxntid\s+256(\s*,\s*1\s*,\s*1)?\b
__global__ void __launch_bounds__(256) kernel(int* out) { out[threadIdx.x] = 1; }
