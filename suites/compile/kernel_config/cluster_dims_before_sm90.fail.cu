// rule: ClusterDims.NeedsComputeCapability90
// section: 5.4.3.1
// statement: compile-time cluster dimensions need compute capability 9.0 or higher: they are rejected for sm_80
// arch: sm_80
// error: error: __cluster_dims__ is not supported for this GPU architecture
// error.clang: error: 'cluster_dims' is not supported for this GPU architecture
__global__ void __cluster_dims__(2, 1, 1) kernel(float* parameter) { parameter[threadIdx.x] = 0.0f; }
