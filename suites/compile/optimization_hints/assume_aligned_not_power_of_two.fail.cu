// rule: BuiltinAssumeAligned.AlignMustBePowerOfTwo
// section: 5.4.9.2
// statement: the align argument of __builtin_assume_aligned must be a power of two
// error: error: .*(power of (2|two)|alignment)
__global__ void kernel(float* ptr, float* out) {
  auto* a = static_cast<float*>(__builtin_assume_aligned(ptr, 24));
  *out = a[0];
}
