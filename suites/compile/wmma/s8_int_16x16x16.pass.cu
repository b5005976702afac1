// rule: Wmma.S8IntShape16x16x16
// section: 5.4.11.6
// statement: multiplicands signed char, accumulator int, m-n-k 16x16x16 is a supported WMMA
//   combination (5.4.11.6 table), here on sm_90
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

__global__ void kernel(const signed char* a, const signed char* b, int* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> b_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> c_frag;
  wmma::fill_fragment(c_frag, int(0));
  wmma::load_matrix_sync(a_frag, a, 16);
  wmma::load_matrix_sync(b_frag, b, 16);
  wmma::mma_sync(c_frag, a_frag, b_frag, c_frag);
  wmma::store_matrix_sync(c, c_frag, 16, wmma::mem_row_major);
}
