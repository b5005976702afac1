// rule: LaunchBounds.MaxBlocksPerClusterIsMaxclusterrank
// section: 5.4.3.2
// arch: sm_90
// statement: maxBlocksPerCluster of __launch_bounds__ compiles to the .maxclusterrank PTX directive
// ptx-match: \.maxclusterrank\s+4\b
__global__ void __launch_bounds__(256, 2, 4) kernel(int* out) { out[threadIdx.x] = 1; }
