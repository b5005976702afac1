// rule: Wmma.B1XorRemovedInSm90
// section: 5.4.11.4
// statement: MMA with experimental::precision::b1 and bmmaBitOpXOR is deprecated and removed in sm_90: it is
//   rejected for sm_90
// error: error: .*(XOR|xor|sm_90|not supported)
#include <mma.h>
using namespace nvcuda;
namespace experimental = wmma::experimental;

__global__ void kernel(const void* a, const void* b, int* c) {
  wmma::fragment<wmma::matrix_a, 8, 8, 128, experimental::precision::b1, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 8, 8, 128, experimental::precision::b1, wmma::col_major> b_frag;
  wmma::fragment<wmma::accumulator, 8, 8, 128, int> c_frag;
  wmma::fill_fragment(c_frag, 0);
  wmma::load_matrix_sync(a_frag, a, 128);
  wmma::load_matrix_sync(b_frag, b, 128);
  wmma::bmma_sync(c_frag, a_frag, b_frag, c_frag, experimental::bmmaBitOpXOR, experimental::bmmaAccumulateOpPOPC);
  wmma::store_matrix_sync(c, c_frag, 8, wmma::mem_row_major);
}
