// rule: Wmma.AccumulatorLoadWithLayout
// section: 5.4.11.1
// statement: an accumulator fragment is loaded with load_matrix_sync(a, mptr, ldm, layout), layout being
//   mem_row_major or mem_col_major
#include <mma.h>
using namespace nvcuda;

__global__ void kernel(const float* c_in, float* c) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c_frag;
  wmma::load_matrix_sync(c_frag, c_in, 16, wmma::mem_row_major);
  wmma::load_matrix_sync(c_frag, c_in, 16, wmma::mem_col_major);
  wmma::store_matrix_sync(c, c_frag, 16, wmma::mem_col_major);
}
