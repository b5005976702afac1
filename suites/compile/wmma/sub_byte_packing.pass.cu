// rule: Wmma.SubByteElementsPacked
// section: 5.4.11.4
// statement: sub-byte fragments pack their elements: num_elements counts u4/s4 elements 8 and b1 elements 32 to a
//   storage element
// arch: sm_80
#include <mma.h>
using namespace nvcuda;
namespace sub = wmma::experimental::precision;

using U4 = wmma::fragment<wmma::matrix_a, 8, 8, 32, sub::u4, wmma::row_major>;
using S4 = wmma::fragment<wmma::matrix_b, 8, 8, 32, sub::s4, wmma::col_major>;
using B1 = wmma::fragment<wmma::matrix_a, 8, 8, 128, sub::b1, wmma::row_major>;
static_assert(U4::num_elements == 8 * U4::num_storage_elements, "u4: 8 elements in 1 storage element");
static_assert(S4::num_elements == 8 * S4::num_storage_elements, "s4: 8 elements in 1 storage element");
static_assert(B1::num_elements == 32 * B1::num_storage_elements, "b1: 32 elements in 1 storage element");
