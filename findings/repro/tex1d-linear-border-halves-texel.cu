// nvcc-flags:
// PG12.9 19.2: with cudaFilterModeLinear a one-dimensional texture returns tex(x) = (1 - a)T[i] + aT[i+1], i =
// floor(x - 0.5), a = frac(x - 0.5). At a texel centre (x = i + 0.5, a = 0) this is T[i], whatever the precision.
// A 1-D float CUDA array of 16 texels, unnormalized coordinates, cudaAddressModeBorder on every coordinate (as the
// suite sets addressMode[0..2]), and, for comparison, cudaAddressModeClamp.
// Exit: 1 a border fetch at a texel centre is not T[i] (the disagreement), 0 it is, 2 error.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void fetch(cudaTextureObject_t tex, const float* x, float* out, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = tex1D<float>(tex, x[t]);
}

int main() {
  const int n = 16;
  float host[n];
  for (int i = 0; i < n; ++i) host[i] = 100.0f * (i + 1);
  cudaArray_t array = nullptr;
  const cudaChannelFormatDesc format = cudaCreateChannelDesc<float>();
  if (cudaMallocArray(&array, &format, n) != cudaSuccess) return 2;
  if (cudaMemcpy2DToArray(array, 0, 0, host, sizeof host, sizeof host, 1, cudaMemcpyHostToDevice) != cudaSuccess)
    return 2;
  float xs[n];
  for (int i = 0; i < n; ++i) xs[i] = i + 0.5f;
  float *x = nullptr, *out = nullptr;
  if (cudaMalloc(&x, sizeof xs) != cudaSuccess || cudaMalloc(&out, sizeof xs) != cudaSuccess) return 2;
  cudaMemcpy(x, xs, sizeof xs, cudaMemcpyHostToDevice);
  int differing = 0;
  for (cudaTextureAddressMode mode : {cudaAddressModeBorder, cudaAddressModeClamp}) {
    cudaResourceDesc resource{};
    resource.resType = cudaResourceTypeArray;
    resource.res.array.array = array;
    cudaTextureDesc texture{};
    texture.addressMode[0] = texture.addressMode[1] = texture.addressMode[2] = mode;
    texture.filterMode = cudaFilterModeLinear;
    texture.readMode = cudaReadModeElementType;
    cudaTextureObject_t tex = 0;
    if (cudaCreateTextureObject(&tex, &resource, &texture, nullptr) != cudaSuccess) return 2;
    fetch<<<1, 32>>>(tex, x, out, n);
    float got[n];
    if (cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost) != cudaSuccess) return 2;
    for (int i = 0; i < n; ++i) {
      const bool same = got[i] == host[i];
      if (mode == cudaAddressModeBorder) differing += !same;
      std::printf("%s x=%g: documented T[%d] = %g, observed %g%s\n", mode == cudaAddressModeBorder ? "border" : "clamp",
                  xs[i], i, host[i], got[i], same ? "" : "  <- differs");
    }
    cudaDestroyTextureObject(tex);
  }
  return differing ? 1 : 0;
}
