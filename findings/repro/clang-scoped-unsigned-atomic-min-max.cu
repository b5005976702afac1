// compiler: clang
// atomicMax_block / atomicMax_system / atomicMin_block / atomicMin_system on unsigned int and unsigned long long
// (5.4.5.1.8, 5.4.5.1.9) must compare as unsigned: atomicMax(1, 0xffffffff) stores 0xffffffff. clang 22's
// __clang_cuda_device_functions.h maps them to __nvvm_atom_{cta,sys}_{max,min}_gen_{ui,ull}, which clang lowers to
// the signed llvm.nvvm.atomic.{max,min}.gen.i.{cta,sys} intrinsics: the PTX is atom.cta.max.s32 / atom.sys.min.s64,
// a signed comparison (plain atomicMax, device scope, is atom.global.max.u32 and correct). Exits 1 while that
// reproduces, 0 once fixed, 2 on a CUDA error.
#include <cstdio>

// [0] atomicMax_block(1, 0xffffffff)   [1] atomicMax_system(1, 0xffffffff)
// [2] atomicMin_block(0xffffffff, 1)   [3] atomicMin_system(0x80000000, 1)
// [4] atomicMax_block(1ull, ~0ull)     [5] atomicMin_system(1ull << 63, 1ull)
__global__ void scoped_min_max(unsigned* u, unsigned long long* ull) {
  atomicMax_block(&u[0], 0xffffffffu);
  atomicMax_system(&u[1], 0xffffffffu);
  atomicMin_block(&u[2], 1u);
  atomicMin_system(&u[3], 1u);
  atomicMax_block(&ull[0], ~0ull);
  atomicMin_system(&ull[1], 1ull);
}

int main() {
  const unsigned u_initial[4] = {1, 1, 0xffffffffu, 0x80000000u};
  const unsigned long long ull_initial[2] = {1, 1ull << 63};
  const unsigned u_expected[4] = {0xffffffffu, 0xffffffffu, 1, 1};
  const unsigned long long ull_expected[2] = {~0ull, 1};
  unsigned* u;
  unsigned long long* ull;
  unsigned u_got[4];
  unsigned long long ull_got[2];
  cudaError_t err = cudaMalloc(&u, sizeof u_initial);
  if (err == cudaSuccess) err = cudaMalloc(&ull, sizeof ull_initial);
  if (err == cudaSuccess) err = cudaMemcpy(u, u_initial, sizeof u_initial, cudaMemcpyHostToDevice);
  if (err == cudaSuccess) err = cudaMemcpy(ull, ull_initial, sizeof ull_initial, cudaMemcpyHostToDevice);
  if (err == cudaSuccess) {
    scoped_min_max<<<1, 1>>>(u, ull);
    err = cudaDeviceSynchronize();
  }
  if (err == cudaSuccess) err = cudaMemcpy(u_got, u, sizeof u_got, cudaMemcpyDeviceToHost);
  if (err == cudaSuccess) err = cudaMemcpy(ull_got, ull, sizeof ull_got, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    std::printf("error: %s\n", cudaGetErrorString(err));
    return 2;
  }
  const char* u_calls[4] = {"atomicMax_block(1u, 0xffffffffu)", "atomicMax_system(1u, 0xffffffffu)",
                            "atomicMin_block(0xffffffffu, 1u)", "atomicMin_system(0x80000000u, 1u)"};
  const char* ull_calls[2] = {"atomicMax_block(1ull, ~0ull)", "atomicMin_system(1ull << 63, 1ull)"};
  bool ok = true;
  for (int i = 0; i < 4; ++i) {
    std::printf("%-36s documented stored %#x, observed %#x\n", u_calls[i], u_expected[i], u_got[i]);
    ok = ok && u_got[i] == u_expected[i];
  }
  for (int i = 0; i < 2; ++i) {
    std::printf("%-36s documented stored %#llx, observed %#llx\n", ull_calls[i], ull_expected[i], ull_got[i]);
    ok = ok && ull_got[i] == ull_expected[i];
  }
  std::printf("%s\n", ok ? "as documented" : "DISAGREES with the documentation");
  return ok ? 0 : 1;
}
