// compiler: clang
// A kernel declared __cluster_dims__(2, 1, 1) and launched with <<<>>> runs in clusters of 2 x 1 x 1 blocks
// (5.4.3.1; PG12.9 5.2.1: the compile-time cluster size cannot be modified at launch). clang 22 accepts the
// attribute without a diagnostic (its AST holds a CUDAClusterDimsAttr) but emits no .reqnctapercluster /
// .explicitcluster directive into the PTX, so the driver sees a kernel without a cluster size: each block is a
// cluster of 1. Exits 1 while that reproduces, 0 once fixed, 2 on a CUDA error (or a device without clusters).
#include <cstdio>

__global__ void __cluster_dims__(2, 1, 1) report_cluster_size(unsigned* size) {
  size[blockIdx.x] = __clusterSizeInBlocks();
}

int main() {
  int cc_major = 0;
  if (cudaDeviceGetAttribute(&cc_major, cudaDevAttrComputeCapabilityMajor, 0) != cudaSuccess || cc_major < 9) {
    std::printf("error: needs a device of compute capability 9.0 or higher\n");
    return 2;
  }
  const int kBlocks = 4;
  unsigned* sizes;
  unsigned got[kBlocks];
  cudaError_t err = cudaMalloc(&sizes, sizeof got);
  if (err == cudaSuccess) {
    report_cluster_size<<<kBlocks, 32>>>(sizes);
    err = cudaDeviceSynchronize();
  }
  if (err == cudaSuccess) err = cudaMemcpy(got, sizes, sizeof got, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    std::printf("error: %s\n", cudaGetErrorString(err));
    return 2;
  }
  bool ok = true;
  for (int b = 0; b < kBlocks; ++b) {
    std::printf("block %d: documented cluster of 2 blocks, observed %u\n", b, got[b]);
    ok = ok && got[b] == 2;
  }
  std::printf("%s\n", ok ? "as documented" : "DISAGREES with the documentation");
  return ok ? 0 : 1;
}
