// rule: Wmma.ElementAccessThroughX
// section: 5.4.11.1
// statement: a fragment has num_elements and x[num_elements]: scaling an accumulator element by element compiles
#include <mma.h>
using namespace nvcuda;

__global__ void kernel(const float* c_in, float* c) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> frag;
  wmma::load_matrix_sync(frag, c_in, 16, wmma::mem_row_major);
  float alpha = 0.5f;
  for (int t = 0; t < frag.num_elements; t++) frag.x[t] *= alpha;
  wmma::store_matrix_sync(c, frag, 16, wmma::mem_row_major);
}
