// nvcc-flags:
// PG12.9 20.3: "Double-precision floating-point absolute value and negation are not compliant with IEEE-754 with
// respect to NaNs; these are passed through unchanged." (and: "while SNaN encodings are supported, they are not
// signaling and are handled as quiet"). Observed on H100 / CUDA 13.0: fabs() and unary minus of a double signaling
// NaN return it with the quiet bit set (0x7ff0000000000001 -> 0x7ff8000000000001); quiet NaNs pass unchanged.
// Exit 1: some NaN is not passed through unchanged; 0: all are; 2: CUDA error.
#include <cstdint>
#include <cstdio>
#include <cstring>

__global__ void abs_and_negate(const double* in, int n, std::uint64_t* abs_bits, std::uint64_t* neg_bits) {
  const int i = threadIdx.x;
  if (i < n) {
    const double a = fabs(in[i]), m = -in[i];
    std::memcpy(&abs_bits[i], &a, 8);
    std::memcpy(&neg_bits[i], &m, 8);
  }
}

#define CHECK(call)                                                                  \
  do {                                                                               \
    cudaError_t e = (call);                                                          \
    if (e != cudaSuccess) {                                                          \
      std::printf("CUDA error: %s at %s\n", cudaGetErrorString(e), #call);          \
      return 2;                                                                      \
    }                                                                                \
  } while (0)

int main() {
  const std::uint64_t bits[] = {0x7ff8000000000000ull, 0xfff8000000000000ull,   // quiet
                                0x7ff0000000000001ull, 0xfff0000000000001ull,   // signaling
                                0x7ff4000000000abcull, 0x7ff7ffffffffffffull};
  const int n = 6;
  double in[n];
  std::memcpy(in, bits, sizeof in);
  double* d_in;
  std::uint64_t *d_abs, *d_neg;
  CHECK(cudaMalloc(&d_in, sizeof in));
  CHECK(cudaMalloc(&d_abs, sizeof bits));
  CHECK(cudaMalloc(&d_neg, sizeof bits));
  CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
  abs_and_negate<<<1, 32>>>(d_in, n, d_abs, d_neg);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::uint64_t abs_bits[n], neg_bits[n];
  CHECK(cudaMemcpy(abs_bits, d_abs, sizeof abs_bits, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(neg_bits, d_neg, sizeof neg_bits, cudaMemcpyDeviceToHost));
  int changed = 0;
  std::printf("documented: fabs(NaN) and -NaN return the NaN unchanged (same bits)\n");
  for (int i = 0; i < n; ++i) {
    const bool bad = abs_bits[i] != bits[i] || neg_bits[i] != bits[i];
    changed += bad;
    std::printf("  in 0x%016llx  fabs 0x%016llx  neg 0x%016llx%s\n", (unsigned long long)bits[i],
                (unsigned long long)abs_bits[i], (unsigned long long)neg_bits[i], bad ? "   <- changed" : "");
  }
  std::printf("observed: %d of %d NaNs changed\n", changed, n);
  return changed ? 1 : 0;
}
