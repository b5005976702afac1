// rule: Wmma.DoubleOnlyShape8x8x4
// section: 5.4.11.6
// statement: double precision WMMA supports m-n-k 8x8x4 only: 16x16x16 is rejected
// error: error: incomplete type "nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, double,
//   nvcuda::wmma::row_major>" is not allowed
// error.clang: error: implicit instantiation of undefined template 'nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16,
//   16, 16, double, nvcuda::wmma::row_major>'
#include <mma.h>
using namespace nvcuda;

__global__ void kernel(const double* a, const double* b, double* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, double, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, double, wmma::col_major> b_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, double> c_frag;
  wmma::fill_fragment(c_frag, 0.0);
  wmma::load_matrix_sync(a_frag, a, 16);
  wmma::load_matrix_sync(b_frag, b, 16);
  wmma::mma_sync(c_frag, a_frag, b_frag, c_frag);
  wmma::store_matrix_sync(c, c_frag, 16, wmma::mem_row_major);
}
