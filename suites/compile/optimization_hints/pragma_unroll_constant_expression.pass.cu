// rule: PragmaUnroll.IntegralConstantExpression
// section: 5.4.9.1
// statement: #pragma unroll may be followed by an integral constant expression, such as (Count + 1) or
//   (MyStruct::value)
struct MyStruct {
  static constexpr int value = 4;
};
inline constexpr int Count = 4;

// Unrolling keeps the loop's meaning (a constant expression in device code: 0 + 1 + ... + 11).
__device__ constexpr int sum_to_eleven() {
  int sum = 0;
#pragma unroll(Count + 1)
  for (int i = 0; i < 12; ++i) sum += i;
#pragma unroll(MyStruct::value)
  for (int i = 0; i < 12; ++i) sum += i;
  return sum;
}
__device__ void value_in_device_code() { static_assert(sum_to_eleven() == 2 * 66, "both unrolled loops"); }

__device__ void foo(int* p1, int* p2) {
#pragma unroll(Count + 1)
  for (int i = 0; i < 12; ++i) p1[i] += p2[i] * 4;
#pragma unroll(MyStruct::value)
  for (int i = 0; i < 12; ++i) p1[i] += p2[i] * 16;
}
