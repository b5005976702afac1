// rule: Wmma.Tf32OnlyShape16x16x8
// section: 5.4.11.2
// statement: the only matrix size supported for precision::tf32 is 16x16x8: 16x16x16 is rejected
// error: error: incomplete type "nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16,
//   nvcuda::wmma::precision::tf32, nvcuda::wmma::row_major>" is not allowed
// error.clang: error: implicit instantiation of undefined template 'nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16,
//   16, 16, nvcuda::wmma::precision::tf32, nvcuda::wmma::row_major>'
#include <mma.h>
using namespace nvcuda;

__global__ void kernel(const float* a, const float* b, float* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, wmma::precision::tf32, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, wmma::precision::tf32, wmma::col_major> b_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c_frag;
  wmma::fill_fragment(c_frag, 0.0f);
  wmma::load_matrix_sync(a_frag, a, 16);
  wmma::load_matrix_sync(b_frag, b, 16);
  wmma::mma_sync(c_frag, a_frag, b_frag, c_frag);
  wmma::store_matrix_sync(c, c_frag, 16, wmma::mem_row_major);
}
