// rule: PragmaUnroll.FullWithoutArgument
// section: 5.4.9.1
// statement: #pragma unroll without an argument completely unrolls a loop whose trip count is constant: no loop
//   (no backward branch) remains
// ptx-no-match: \bbra(\.uni)?\b
__global__ void kernel(int* p1, const int* p2) {
#pragma unroll
  for (int i = 0; i < 12; ++i) p1[i] += p2[i] * 2;
}
