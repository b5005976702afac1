// nvcc-flags:
// PG12.9 10.8.1.1: tex1Dfetch() "only works with non-normalized coordinates, so only the border and clamp addressing
// modes are supported"; 6.2.14.1: clamp mode clamps the coordinates to the valid range [0, N).
// A 64-float linear-memory texture with cudaAddressModeClamp: index -1 should read element 0 and index 64 element 63.
// Exit: 1 an out-of-range index reads anything else (the disagreement), 0 clamped, 2 error.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void fetch(cudaTextureObject_t tex, const int* index, float* out, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = tex1Dfetch<float>(tex, index[t]);
}

int main() {
  const int n = 64;
  float host[n];
  for (int i = 0; i < n; ++i) host[i] = 1000.0f + i;
  const int indices[] = {-1000, -1, 0, n - 1, n, 5 * n};
  const int count = sizeof indices / sizeof indices[0];
  float* texels = nullptr;
  int* index = nullptr;
  float* out = nullptr;
  if (cudaMalloc(&texels, sizeof host) != cudaSuccess || cudaMalloc(&index, sizeof indices) != cudaSuccess ||
      cudaMalloc(&out, count * sizeof(float)) != cudaSuccess)
    return 2;
  cudaMemcpy(texels, host, sizeof host, cudaMemcpyHostToDevice);
  cudaMemcpy(index, indices, sizeof indices, cudaMemcpyHostToDevice);
  cudaResourceDesc resource{};
  resource.resType = cudaResourceTypeLinear;
  resource.res.linear.devPtr = texels;
  resource.res.linear.desc = cudaCreateChannelDesc<float>();
  resource.res.linear.sizeInBytes = sizeof host;
  cudaTextureDesc texture{};
  texture.addressMode[0] = cudaAddressModeClamp;
  texture.filterMode = cudaFilterModePoint;
  texture.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex = 0;
  if (cudaCreateTextureObject(&tex, &resource, &texture, nullptr) != cudaSuccess) return 2;
  fetch<<<1, 32>>>(tex, index, out, count);
  float got[count];
  if (cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost) != cudaSuccess) return 2;
  int differing = 0;
  for (int k = 0; k < count; ++k) {
    const int i = indices[k] < 0 ? 0 : indices[k] >= n ? n - 1 : indices[k];
    const bool same = got[k] == host[i];
    differing += !same;
    std::printf("clamp index %d: documented %g (element %d), observed %g%s\n", indices[k], host[i], i, got[k],
                same ? "" : "  <- differs");
  }
  return differing ? 1 : 0;
}
