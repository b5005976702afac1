// rule: Wmma.DoubleNeedsSm80
// section: 5.4.11.3
// statement: double precision WMMA needs compute capability 8.0: it is rejected for sm_75
// arch: sm_75
// error: error: incomplete type "nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 8, 8, 4, double,
//   nvcuda::wmma::row_major>" is not allowed
// error.clang: error: implicit instantiation of undefined template 'nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 8,
//   8, 4, double, nvcuda::wmma::row_major>'
#include <mma.h>
using namespace nvcuda;

__global__ void kernel(const double* a, const double* b, double* c) {
  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> b_frag;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> c_frag;
  wmma::fill_fragment(c_frag, 0.0);
  wmma::load_matrix_sync(a_frag, a, 4);
  wmma::load_matrix_sync(b_frag, b, 4);
  wmma::mma_sync(c_frag, a_frag, b_frag, c_frag);
  wmma::store_matrix_sync(c, c_frag, 8, wmma::mem_row_major);
}
