// nvcc-flags:
// PG12.9 20.2 Table 28: "Maximum width, height, and number of layers for a 2D layered surface object" is printed
// "32768 x 32768 x 1048" for CC 6.0 and later, where every other layered row prints 2048 (2046 for cubemaps).
// Prints what the device reports. Exit: 1 the device reports other than 1048 layers (the disagreement), 0 it reports
// 1048, 2 error or a device of CC below 6.0 (the table's first cell).
#include <cstdio>

#include <cuda_runtime.h>

int main() {
  int major = 0, width = 0, height = 0, layers = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0) != cudaSuccess ||
      cudaDeviceGetAttribute(&width, cudaDevAttrMaxSurface2DLayeredWidth, 0) != cudaSuccess ||
      cudaDeviceGetAttribute(&height, cudaDevAttrMaxSurface2DLayeredHeight, 0) != cudaSuccess ||
      cudaDeviceGetAttribute(&layers, cudaDevAttrMaxSurface2DLayeredLayers, 0) != cudaSuccess) {
    std::printf("no device or attribute query failed\n");
    return 2;
  }
  if (major < 6) return 2;
  std::printf("Table 28: 32768 x 32768 x 1048; device: %d x %d x %d\n", width, height, layers);
  return layers == 1048 ? 0 : 1;
}
