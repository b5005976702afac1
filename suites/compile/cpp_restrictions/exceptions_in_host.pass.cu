// rule: CppRestrictions.ExceptionsInHostCode
// section: PG12.9 18.5.7
// statement: exception handling is supported in host code of a CUDA translation unit
// skip.nvrtc: host code (NVRTC compiles device code only)
int guarded(int x) {
  try {
    if (x < 0) throw x;
    return x;
  } catch (int e) {
    return -e;
  }
}

__global__ void kernel() {}
