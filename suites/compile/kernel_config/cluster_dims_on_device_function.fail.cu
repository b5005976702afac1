// rule: ClusterDims.OnlyOnGlobal
// section: 5.4.1.6
// requires-cc: 9.0
// statement: __cluster_dims__ applies to __global__ functions only, not to __host__ or __device__ functions
//   (Table 40)
// error: error: __cluster_dims__ is only allowed on a __global__ function
// error.clang: error: .*cluster_dims
__device__ void __cluster_dims__(2, 1, 1) helper(float* parameter) { *parameter = 0.0f; }
