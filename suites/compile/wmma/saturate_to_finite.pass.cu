// rule: Wmma.SaturateToFiniteArgument
// section: 5.4.11.1
// statement: mma_sync takes an optional satf argument (saturate to finite value), whose documented effect is on
//   floating-point results (+-Infinity to +-MAX_NORM, NaN to +0): here with a float accumulator
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

__global__ void kernel(const __half* a, const __half* b, float* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c_frag;
  wmma::fill_fragment(c_frag, 0.0f);
  wmma::load_matrix_sync(a_frag, a, 16);
  wmma::load_matrix_sync(b_frag, b, 16);
  wmma::mma_sync(c_frag, a_frag, b_frag, c_frag, true);
  wmma::store_matrix_sync(c, c_frag, 16, wmma::mem_row_major);
}
