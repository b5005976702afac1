// rule: Wmma.AccumulatorLoadNeedsLayout
// section: 5.4.11.1
// statement: loading an accumulator fragment with load_matrix_sync needs the layout argument (mem_row_major or
//   mem_col_major)
// error: error: no instance of overloaded function "nvcuda::wmma::load_matrix_sync" matches the argument list
// error.clang: error: no matching function for call to 'load_matrix_sync'
#include <mma.h>
using namespace nvcuda;

__global__ void kernel(const float* c_in, float* c) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c_frag;
  wmma::load_matrix_sync(c_frag, c_in, 16);
  wmma::store_matrix_sync(c, c_frag, 16, wmma::mem_row_major);
}
