// compiler: clang
// atomicAdd(float2*, float2) and atomicAdd(float4*, float4) (5.4.5.1.1, compute capability 9.x, global memory) store
// old + val in each component, whether or not the caller uses the old value they return. clang 22's
// __clang_cuda_intrinsics.h defines them as `__asm__("atom.add.v2.f32 ...")` that is neither volatile nor
// clobbers memory, so the compiler treats the asm as a pure computation and deletes it when its result is unused:
// the kernel below is an empty `ret;` in PTX and memory keeps its old value. Exits 1 while that reproduces, 0 once
// fixed, 2 on a CUDA error.
#include <cstdio>

__global__ void add_discarding_results(float2* two, float4* four) {
  atomicAdd(two, make_float2(1.0f, -0.5f));
  atomicAdd_block(two + 1, make_float2(1.0f, -0.5f));
  atomicAdd_system(four, make_float4(1.0f, -0.5f, 0.25f, 2.0f));
}

int main() {
  struct Cells {
    float2 two[2];
    float4 four;
  };
  const Cells initial{{{0.0f, 100.0f}, {0.0f, 100.0f}}, {0.0f, 100.0f, -3.0f, 1.0f}};
  Cells* cells;
  Cells got;
  const int kThreads = 64;
  cudaError_t err = cudaMalloc(&cells, sizeof(Cells));
  if (err == cudaSuccess) err = cudaMemcpy(cells, &initial, sizeof(Cells), cudaMemcpyHostToDevice);
  if (err == cudaSuccess) {
    add_discarding_results<<<1, kThreads>>>(cells->two, &cells->four);
    err = cudaDeviceSynchronize();
  }
  if (err == cudaSuccess) err = cudaMemcpy(&got, cells, sizeof(Cells), cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    std::printf("error: %s\n", cudaGetErrorString(err));
    return 2;
  }
  // 64 threads each add exact binary fractions: the sums are exact whatever the order.
  const float2 two_expected{64.0f, 68.0f};
  const float4 four_expected{64.0f, 68.0f, 13.0f, 129.0f};
  bool ok = true;
  for (int i = 0; i < 2; ++i) {
    std::printf("%s x %d: documented {%g, %g}, observed {%g, %g}\n",
                i == 0 ? "atomicAdd(float2*)" : "atomicAdd_block(float2*)", kThreads, two_expected.x,
                two_expected.y, got.two[i].x, got.two[i].y);
    ok = ok && got.two[i].x == two_expected.x && got.two[i].y == two_expected.y;
  }
  std::printf("atomicAdd_system(float4*) x %d: documented {%g, %g, %g, %g}, observed {%g, %g, %g, %g}\n", kThreads,
              four_expected.x, four_expected.y, four_expected.z, four_expected.w, got.four.x, got.four.y, got.four.z,
              got.four.w);
  ok = ok && got.four.x == four_expected.x && got.four.y == four_expected.y && got.four.z == four_expected.z &&
       got.four.w == four_expected.w;
  std::printf("%s\n", ok ? "as documented" : "DISAGREES with the documentation");
  return ok ? 0 : 1;
}
