// cuda::atomic_ref<T> store and exchange on a 16-byte T (libcu++ cuda::atomic_ref page, "Limitations": store on
// SM70 and later, exchange on SM90 and later) must store the value passed and (exchange) return the old value.
// libcu++ 3.0 (CCCL 3.0.x, CUDA 13.0) moves the value into a .b128 register with `mov.b128 {lo, hi}, _v` (which
// unpacks the uninitialized _v into the operands) instead of `mov.b128 _v, {lo, hi}`, so the stored and returned
// values are whatever the registers held. Exits 1 while that reproduces, 0 once fixed, 2 on a CUDA error.
#include <cuda/atomic>
#include <cstdio>

struct alignas(16) Pair {  // 16 bytes, aligned to its size, no padding
  unsigned long long lo, hi;
};

// Two kernels: libcu++ 3.0's inline PTX declares its .b128 registers without a { } scope, so two 16-byte atomics in
// one function do not assemble ("Duplicate definition of variable '_v'").
__global__ void store(Pair* stored) { cuda::atomic_ref<Pair, cuda::thread_scope_device>(*stored).store(Pair{1, 2}); }

__global__ void exchange(Pair* exchanged, Pair* returned) {
  *returned = cuda::atomic_ref<Pair, cuda::thread_scope_device>(*exchanged).exchange(Pair{5, 6});
}

static bool same(const Pair& a, const Pair& b) { return a.lo == b.lo && a.hi == b.hi; }

int main() {
  Pair* cells;  // [0] stored, [1] exchanged, [2] returned
  const Pair initial[3] = {{0, 0}, {3, 4}, {0, 0}};
  Pair got[3];
  if (cudaMalloc(&cells, sizeof initial) != cudaSuccess ||
      cudaMemcpy(cells, initial, sizeof initial, cudaMemcpyHostToDevice) != cudaSuccess) {
    std::printf("error: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 2;
  }
  store<<<1, 1>>>(&cells[0]);
  exchange<<<1, 1>>>(&cells[1], &cells[2]);
  cudaError_t err = cudaDeviceSynchronize();
  if (err == cudaSuccess) err = cudaMemcpy(got, cells, sizeof got, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    std::printf("error: %s\n", cudaGetErrorString(err));
    return 2;
  }
  std::printf("store({1, 2}):            documented stored {0x1, 0x2}, observed stored {%#llx, %#llx}\n", got[0].lo,
              got[0].hi);
  std::printf("exchange({5, 6}) on {3, 4}: documented stored {0x5, 0x6} returned {0x3, 0x4}, observed stored "
              "{%#llx, %#llx} returned {%#llx, %#llx}\n",
              got[1].lo, got[1].hi, got[2].lo, got[2].hi);
  const bool ok = same(got[0], Pair{1, 2}) && same(got[1], Pair{5, 6}) && same(got[2], Pair{3, 4});
  std::printf("%s\n", ok ? "as documented" : "DISAGREES with the documentation");
  return ok ? 0 : 1;
}
