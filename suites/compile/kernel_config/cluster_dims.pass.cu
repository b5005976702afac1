// rule: ClusterDims.CompileTimeDimensions
// section: 5.4.3.1
// requires-cc: 9.0
// statement: on compute capability 9.0 a kernel may declare compile-time cluster dimensions with
//   __cluster_dims__(x, y, z)
__global__ void __cluster_dims__(2, 1, 1) kernel(float* parameter) { parameter[threadIdx.x] = 0.0f; }
