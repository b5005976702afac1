// rule: PragmaUnroll.AboveIntMaxIgnoredWithWarning
// section: 5.4.9.1
// statement: #pragma unroll with a value greater than INT_MAX is ignored, and a warning is issued
// warning: warning.*(unroll|pragma|large|range)
__device__ void foo(int* p1, int* p2) {
#pragma unroll 4294967296
  for (int i = 0; i < 12; ++i) p1[i] += p2[i] * 2;
}
