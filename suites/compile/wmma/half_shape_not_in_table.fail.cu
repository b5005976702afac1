// rule: Wmma.HalfShapeOutsideTableRejected
// section: 5.4.11.6
// statement: __half multiplicands support 16x16x16, 32x8x16 and 8x32x16 only: 16x16x8 is rejected
// error: error: incomplete type "nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 8, __half,
//   nvcuda::wmma::row_major>" is not allowed
// error.clang: error: implicit instantiation of undefined template 'nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16,
//   16, 8, __half, nvcuda::wmma::row_major>'
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

__global__ void kernel(const __half* a, const __half* b, float* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 8, __half, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, __half, wmma::col_major> b_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> c_frag;
  wmma::fill_fragment(c_frag, 0.0f);
  wmma::load_matrix_sync(a_frag, a, 8);
  wmma::load_matrix_sync(b_frag, b, 8);
  wmma::mma_sync(c_frag, a_frag, b_frag, c_frag);
  wmma::store_matrix_sync(c, c_frag, 16, wmma::mem_row_major);
}
