// rule: ClusterDims.OptionalDimensions
// section: 5.4.3.1
// requires-cc: 9.0
// statement: __cluster_dims__ takes up to three dimensions: __cluster_dims__([x, [y, [z]]])
__global__ void __cluster_dims__(4) one(float* p) { p[threadIdx.x] = 0.0f; }
__global__ void __cluster_dims__(2, 2) two(float* p) { p[threadIdx.x] = 0.0f; }
