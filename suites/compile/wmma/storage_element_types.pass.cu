// rule: Wmma.StorageElementTypes
// section: 5.4.11.4
// statement: the storage element type of a fragment is float for precision::tf32, unsigned for u4 and b1, int for
//   s4, and T for any other T
// arch: sm_80
#include <mma.h>
using namespace nvcuda;
namespace sub = wmma::experimental::precision;

template <typename A, typename B>
constexpr bool same = false;
template <typename A>
constexpr bool same<A, A> = true;

template <typename Fragment>
using storage = typename Fragment::storage_element_type;

using Tf32 = wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major>;
static_assert(same<storage<Tf32>, float>, "tf32 -> float");
static_assert(same<storage<wmma::fragment<wmma::matrix_a, 8, 8, 32, sub::u4, wmma::row_major>>, unsigned>,
              "u4 -> unsigned");
static_assert(same<storage<wmma::fragment<wmma::matrix_a, 8, 8, 32, sub::s4, wmma::row_major>>, int>,
              "s4 -> int");
static_assert(same<storage<wmma::fragment<wmma::matrix_a, 8, 8, 128, sub::b1, wmma::row_major>>, unsigned>,
              "b1 -> unsigned");
static_assert(same<storage<wmma::fragment<wmma::accumulator, 8, 8, 4, double>>, double>, "T -> T");
