// rule: ClusterDims.DefaultFormIsGridCluster
// section: 5.4.3.1
// arch: sm_90
// statement: the default form __cluster_dims__() declares a kernel to be launched as a grid cluster
__global__ void __cluster_dims__() kernel(float* parameter) { parameter[threadIdx.x] = 0.0f; }
