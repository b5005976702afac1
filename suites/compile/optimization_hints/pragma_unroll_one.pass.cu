// rule: PragmaUnroll.OneDisablesUnrolling
// section: 5.4.9.1
// statement: #pragma unroll 1 disables unrolling: the loop remains (a backward branch), even with a constant trip
//   count
// ptx-match: \bbra(\.uni)?\b
__global__ void kernel(int* p1, const int* p2) {
#pragma unroll 1
  for (int i = 0; i < 12; ++i) p1[i] += p2[i] * 8;
}
