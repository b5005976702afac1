// rule: BuiltinAssumeAligned.AlignMustBeLiteral
// section: 5.4.9.2
// statement: the align argument of __builtin_assume_aligned must be an integer literal
// error: error: .*(constant|literal)
__global__ void kernel(float* ptr, float* out, unsigned long align) {
  auto* a = static_cast<float*>(__builtin_assume_aligned(ptr, align));
  *out = a[0];
}
