// rule: Wmma.S4RemovedInSm90
// section: 5.4.11.4
// statement: MMA with experimental::precision::s4 is deprecated and removed in sm_90: it is rejected for sm_90
// error: error: .*(s4|sm_90|not supported)
#include <mma.h>
using namespace nvcuda;
namespace precision = wmma::experimental::precision;

__global__ void kernel(const void* a, const void* b, int* c) {
  wmma::fragment<wmma::matrix_a, 8, 8, 32, precision::s4, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 8, 8, 32, precision::s4, wmma::col_major> b_frag;
  wmma::fragment<wmma::accumulator, 8, 8, 32, int> c_frag;
  wmma::fill_fragment(c_frag, 0);
  wmma::load_matrix_sync(a_frag, a, 32);
  wmma::load_matrix_sync(b_frag, b, 32);
  wmma::mma_sync(c_frag, a_frag, b_frag, c_frag);
  wmma::store_matrix_sync(c, c_frag, 8, wmma::mem_row_major);
}
