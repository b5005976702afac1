// rule: PragmaUnroll.ZeroDisablesUnrolling
// section: 5.4.9.1
// statement: #pragma unroll 0 disables unrolling: the loop remains (a backward branch)
// note: the same section also says a non-positive value is ignored with a warning; 0 is both, and the two
//   statements disagree about it
// ptx-match: \bbra(\.uni)?\b
__global__ void kernel(int* p1, const int* p2) {
#pragma unroll 0
  for (int i = 0; i < 12; ++i) p1[i] += p2[i] * 8;
}
