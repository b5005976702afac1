// __nv_atomic_fetch_sub / __nv_atomic_sub on float and double (PG 5.4.5.2.2): "Computes old - val" in one atomic
// transaction; IEEE 754 (PG12.9 20.3) gives -0 - (+0) = -0. nvcc 13.0 lowers the subtraction to atom.add of
// (0 - val), which is +0 for val = +0, and -0 + (+0) = +0: the stored value is +0. Exits 1 while that reproduces,
// 0 once fixed, 2 on a CUDA error.
#include <cstdio>
#include <cstring>

__global__ void subtract_zero(float* f, double* d) {
  __nv_atomic_fetch_sub(&f[0], 0.0f, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_sub(&f[1], 0.0f, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_fetch_sub(&d[0], 0.0, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_sub(&d[1], 0.0, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
}

int main() {
  const float f_init[2] = {-0.0f, -0.0f};
  const double d_init[2] = {-0.0, -0.0};
  float* f;
  double* d;
  float f_got[2];
  double d_got[2];
  cudaError_t err = cudaMalloc(&f, sizeof f_init);
  if (err == cudaSuccess) err = cudaMalloc(&d, sizeof d_init);
  if (err == cudaSuccess) err = cudaMemcpy(f, f_init, sizeof f_init, cudaMemcpyHostToDevice);
  if (err == cudaSuccess) err = cudaMemcpy(d, d_init, sizeof d_init, cudaMemcpyHostToDevice);
  if (err == cudaSuccess) {
    subtract_zero<<<1, 1>>>(f, d);
    err = cudaDeviceSynchronize();
  }
  if (err == cudaSuccess) err = cudaMemcpy(f_got, f, sizeof f_got, cudaMemcpyDeviceToHost);
  if (err == cudaSuccess) err = cudaMemcpy(d_got, d, sizeof d_got, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    std::printf("error: %s\n", cudaGetErrorString(err));
    return 2;
  }
  const char* names[2] = {"__nv_atomic_fetch_sub", "__nv_atomic_sub      "};
  bool ok = true;
  for (int k = 0; k < 2; ++k) {
    unsigned fb;
    unsigned long long db;
    std::memcpy(&fb, &f_got[k], sizeof fb);
    std::memcpy(&db, &d_got[k], sizeof db);
    std::printf("%s(-0.0f, 0.0f): documented stored -0 (0x80000000), observed %g (%#010x)\n", names[k], f_got[k], fb);
    std::printf("%s(-0.0,  0.0 ): documented stored -0 (0x8000000000000000), observed %g (%#018llx)\n", names[k],
                d_got[k], db);
    ok = ok && fb == 0x80000000u && db == 0x8000000000000000ull;
  }
  std::printf("%s\n", ok ? "as documented" : "DISAGREES with the documentation");
  return ok ? 0 : 1;
}
