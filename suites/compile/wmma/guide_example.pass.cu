// rule: Wmma.GuideExample
// section: 5.4.11.7
// statement: the guide's 16x16x16 single-warp example (col_major A, row_major B, float accumulator) compiles
#include <mma.h>
using namespace nvcuda;

__global__ void wmma_ker(half* a, half* b, float* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> a_frag;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c_frag;
  wmma::fill_fragment(c_frag, 0.0f);
  wmma::load_matrix_sync(a_frag, a, 16);
  wmma::load_matrix_sync(b_frag, b, 16);
  wmma::mma_sync(c_frag, a_frag, b_frag, c_frag);
  wmma::store_matrix_sync(c, c_frag, 16, wmma::mem_row_major);
}
