// rule: Wmma.B1AndNeedsSm80
// section: 5.4.11.4
// statement: bmmaBitOpAND is available on compute capability 8.0 and higher (compute_80 minimum): rejected for sm_75
// arch: sm_75
// error: error: namespace "nvcuda::wmma::experimental" has no member "bmmaBitOpAND"
// error.clang: error: no member named 'bmmaBitOpAND' in namespace 'nvcuda::wmma::experimental'
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
  wmma::bmma_sync(c_frag, a_frag, b_frag, c_frag, experimental::bmmaBitOpAND, experimental::bmmaAccumulateOpPOPC);
  wmma::store_matrix_sync(c, c_frag, 8, wmma::mem_row_major);
}
