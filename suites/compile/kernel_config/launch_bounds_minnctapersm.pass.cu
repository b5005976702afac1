// rule: LaunchBounds.MinBlocksIsMinnctapersm
// section: 5.4.3.2
// statement: minBlocksPerMultiprocessor of __launch_bounds__ compiles to the .minnctapersm PTX directive
// ptx-match: \.minnctapersm\s+3\b
__global__ void __launch_bounds__(256, 3) kernel(int* out) { out[threadIdx.x] = 1; }
