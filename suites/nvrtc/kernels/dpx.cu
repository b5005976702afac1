// DPX functions (5.4.8.6), compiled by NVRTC. Element-wise over n inputs, one thread per element.
//   vimax3_s32(const int* a, const int* b, const int* c, int* out, int n)        __vimax3_s32
//   vimin3_u32(const unsigned* a, ..., unsigned* out, int n)                     __vimin3_u32
//   viaddmax_s32(const int* a, const int* b, const int* c, int* out, int n)      __viaddmax_s32
//   viaddmin_s32_relu(const int* a, const int* b, const int* c, int* out, int n) __viaddmin_s32_relu
//   vimax3_s16x2(const unsigned* a, ..., unsigned* out, int n)                   __vimax3_s16x2
//   guide_examples(int* out)    the guide's examples, in the order of its text (see dpx.cpp)
__device__ int global_index() { return static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); }

extern "C" __global__ void vimax3_s32(const int* a, const int* b, const int* c, int* out, int n) {
  const int i = global_index();
  if (i < n) out[i] = __vimax3_s32(a[i], b[i], c[i]);
}

extern "C" __global__ void vimin3_u32(const unsigned* a, const unsigned* b, const unsigned* c, unsigned* out, int n) {
  const int i = global_index();
  if (i < n) out[i] = __vimin3_u32(a[i], b[i], c[i]);
}

extern "C" __global__ void viaddmax_s32(const int* a, const int* b, const int* c, int* out, int n) {
  const int i = global_index();
  if (i < n) out[i] = __viaddmax_s32(a[i], b[i], c[i]);
}

extern "C" __global__ void viaddmin_s32_relu(const int* a, const int* b, const int* c, int* out, int n) {
  const int i = global_index();
  if (i < n) out[i] = __viaddmin_s32_relu(a[i], b[i], c[i]);
}

extern "C" __global__ void vimax3_s16x2(const unsigned* a, const unsigned* b, const unsigned* c, unsigned* out, int n) {
  const int i = global_index();
  if (i < n) out[i] = __vimax3_s16x2(a[i], b[i], c[i]);
}

extern "C" __global__ void guide_examples(int* out) {
  out[0] = __vimax3_s32_relu(-15, 8, 5);
  out[1] = __vimax3_s32_relu(-15, -2, -4);
  out[2] = __viaddmax_s32_relu(-5, 6, -2);
  out[3] = __viaddmax_s32_relu(-5, 4, -2);
  bool smaller_value = false;
  out[4] = static_cast<int>(__vibmin_u32(9u, 6u, &smaller_value));
  out[5] = smaller_value ? 1 : 0;
  out[6] = static_cast<int>(__vimax3_u16x2(0x00050002u, 0x00070004u, 0x00020006u));
}
