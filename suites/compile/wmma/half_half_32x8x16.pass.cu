// rule: Wmma.HalfHalfShape32x8x16
// section: 5.4.11.6
// statement: multiplicands __half, accumulator __half, m-n-k 32x8x16 is a supported WMMA
//   combination (5.4.11.6 table), here on sm_90
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

__global__ void kernel(const __half* a, const __half* b, __half* c) {
  wmma::fragment<wmma::matrix_a, 32, 8, 16, __half, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 32, 8, 16, __half, wmma::col_major> b_frag;
  wmma::fragment<wmma::accumulator, 32, 8, 16, __half> c_frag;
  wmma::fill_fragment(c_frag, __half(0));
  wmma::load_matrix_sync(a_frag, a, 16);
  wmma::load_matrix_sync(b_frag, b, 16);
  wmma::mma_sync(c_frag, a_frag, b_frag, c_frag);
  wmma::store_matrix_sync(c, c_frag, 8, wmma::mem_row_major);
}
