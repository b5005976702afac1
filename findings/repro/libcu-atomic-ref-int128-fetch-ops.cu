// cuda::atomic_ref<unsigned __int128>::fetch_add / fetch_min on SM90 and later (libcu++ cuda::atomic_ref page,
// "Limitations": for sizeof(T) == 16, "fetch_* ... are supported, implemented via atomic compare-and-swap") must
// operate on all 128 bits. libcu++ 3.0 (CCCL 3.0.x, CUDA 13.0) picks the PTX operand type by signedness only, so a
// 16-byte integer becomes a 64-bit atom.add.u64 / atom.min.u64 on the low half: no carry into the high half, and
// the returned value has its high half zero. Exits 1 while that reproduces, 0 once fixed, 2 on a CUDA error.
#include <cuda/atomic>
#include <cstdio>

using U128 = unsigned __int128;

__global__ void fetch_add_and_min(U128* cells, U128* returned) {
  returned[0] = cuda::atomic_ref<U128, cuda::thread_scope_device>(cells[0]).fetch_add(U128(1));
  returned[1] = cuda::atomic_ref<U128, cuda::thread_scope_device>(cells[1]).fetch_min(U128(~0ull));
}

static U128 u128(unsigned long long high, unsigned long long low) { return (U128(high) << 64) | low; }
static void print(const char* what, U128 v) {
  std::printf("%s 0x%016llx%016llx", what, (unsigned long long)(v >> 64), (unsigned long long)v);
}

int main() {
  // fetch_add(1) on 2^64 - 1: 2^64 (a carry into the high half). fetch_min(2^64 - 1) on 2^64: 2^64 - 1.
  const U128 initial[2] = {u128(0, ~0ull), u128(1, 0)};
  const U128 stored_doc[2] = {u128(1, 0), u128(0, ~0ull)};
  const char* names[2] = {"fetch_add(1)         on 0x0000000000000000ffffffffffffffff",
                          "fetch_min(2^64 - 1)  on 0x00000000000000010000000000000000"};
  U128 *cells, *returned, stored[2], old[2];
  cudaError_t err = cudaMalloc(&cells, sizeof initial);
  if (err == cudaSuccess) err = cudaMalloc(&returned, sizeof initial);
  if (err == cudaSuccess) err = cudaMemcpy(cells, initial, sizeof initial, cudaMemcpyHostToDevice);
  if (err == cudaSuccess) {
    fetch_add_and_min<<<1, 1>>>(cells, returned);
    err = cudaDeviceSynchronize();
  }
  if (err == cudaSuccess) err = cudaMemcpy(stored, cells, sizeof stored, cudaMemcpyDeviceToHost);
  if (err == cudaSuccess) err = cudaMemcpy(old, returned, sizeof old, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    std::printf("error: %s\n", cudaGetErrorString(err));
    return 2;
  }
  bool ok = true;
  for (int k = 0; k < 2; ++k) {
    std::printf("%s:\n  documented", names[k]);
    print(" stored", stored_doc[k]);
    print(" returned", initial[k]);
    std::printf("\n  observed  ");
    print(" stored", stored[k]);
    print(" returned", old[k]);
    std::printf("\n");
    ok = ok && stored[k] == stored_doc[k] && old[k] == initial[k];
  }
  std::printf("%s\n", ok ? "as documented" : "DISAGREES with the documentation");
  return ok ? 0 : 1;
}
