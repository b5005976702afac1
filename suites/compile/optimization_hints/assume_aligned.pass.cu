// rule: BuiltinAssumeAligned.TwoAndThreeArguments
// section: 5.4.9.2
// statement: __builtin_assume_aligned(ptr, align) and __builtin_assume_aligned(ptr, align, offset) are available in
//   device code
__global__ void kernel(float* ptr, float* out) {
  auto* a = static_cast<float*>(__builtin_assume_aligned(ptr, 32));
  auto* b = static_cast<float*>(__builtin_assume_aligned(ptr, 32, 8));
  *out = a[0] + b[1];
}
