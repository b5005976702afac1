// rule: NvAbi.AtIndirectCall
// section: 5.4.9.6
// statement: #pragma nv_abi may be placed directly before an indirect function call within an expression statement
//   in a device function
// note: the guide's own example puts it before a declaration (int v1 = dev_func_ptr();), which is not an
//   expression statement; nvcc 13.0 rejects that
// skip.clang: #pragma nv_abi is an nvcc pragma
__device__ int dev_func1() { return 1; }

__global__ void test(int* out) {
  auto* dev_func_ptr = &dev_func1;
  int v1;
#pragma nv_abi preserve_n_control(8)
  v1 = dev_func_ptr();
  *out = v1;
}
