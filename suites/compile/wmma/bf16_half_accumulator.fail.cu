// rule: Wmma.Bf16NeedsFloatAccumulator
// section: 5.4.11.2
// statement: __nv_bfloat16 fragments must be composed with accumulators of float type: a __half accumulator is
//   rejected
// error: error: no instance of overloaded function "nvcuda::wmma::mma_sync" matches the argument list
// error.clang: error: no matching function for call to 'mma_sync'
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

__global__ void kernel(const __nv_bfloat16* a, const __nv_bfloat16* b, __half* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> b_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, __half> c_frag;
  wmma::fill_fragment(c_frag, __half(0));
  wmma::load_matrix_sync(a_frag, a, 16);
  wmma::load_matrix_sync(b_frag, b, 16);
  wmma::mma_sync(c_frag, a_frag, b_frag, c_frag);
  wmma::store_matrix_sync(c, c_frag, 16, wmma::mem_row_major);
}
