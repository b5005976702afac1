// rule: Wmma.HalfNeedsFloatOrHalfAccumulator
// section: 5.4.11.6
// statement: __half multiplicands take a float or __half accumulator only: an int accumulator is rejected
// error: error: no instance of overloaded function "nvcuda::wmma::mma_sync" matches the argument list
// error.clang: error: no matching function for call to 'mma_sync'
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

__global__ void kernel(const __half* a, const __half* b, int* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> c_frag;
  wmma::fill_fragment(c_frag, 0);
  wmma::load_matrix_sync(a_frag, a, 16);
  wmma::load_matrix_sync(b_frag, b, 16);
  wmma::mma_sync(c_frag, a_frag, b_frag, c_frag);
  wmma::store_matrix_sync(c, c_frag, 16, wmma::mem_row_major);
}
