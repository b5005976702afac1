// One warp computes D = A*B + C with the warp matrix functions (5.4.11) and the result is compared with a host
// reference. The operands are small integers, so every supported element type represents them, their products and
// sums exactly and the comparison can be exact. A, B and C are placed in memory with the layout and the leading
// dimension (ldm) the test case chooses; the padding past each row or column holds values that would change the
// result if they were read, and the padding of D must be left untouched by store_matrix_sync.
#pragma once

#include <cuconform/cuconform.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace cuconform_wmma {

namespace wmma = nvcuda::wmma;
namespace experimental = nvcuda::wmma::experimental;

enum class Major { kRow, kCol };

// One combination of layouts: of A and B (their fragments' row_major or col_major), of C and D in memory
// (mem_row_major or mem_col_major), and whether the leading dimensions are padded beyond the tile.
struct Case {
  Major a;
  Major b;
  wmma::layout_t accumulator;
  bool padded;
};

std::vector<Case> every_layout();      // the 16 combinations
std::vector<Case> sub_byte_layouts();  // A row_major and B col_major (the only ones allowed), 4 combinations
std::string case_name(const ::testing::TestParamInfo<Case>& info);
void PrintTo(const Case& c, std::ostream* out);

// ---- Element types in memory ----------------------------------------------------------------------------------

template <class T>
struct Element {
  static constexpr int bits = 8 * sizeof(T);
  static T from(long long v) { return static_cast<T>(v); }
  static long double value(T v) { return static_cast<long double>(v); }
};
template <>
struct Element<__half> {
  static constexpr int bits = 16;
  static __half from(long long v) { return __float2half(static_cast<float>(v)); }
  static long double value(__half v) { return __half2float(v); }
};
template <>
struct Element<__nv_bfloat16> {
  static constexpr int bits = 16;
  static __nv_bfloat16 from(long long v) { return __float2bfloat16(static_cast<float>(v)); }
  static long double value(__nv_bfloat16 v) { return __bfloat162float(v); }
};

// ---- Configurations: one row of the tables of 5.4.11.6 ----------------------------------------------------------

struct Range {
  long long min, max;
};

// A*B + C with fragments of the given types, loaded from memory of the given types, one element per memory element.
template <int M_, int N_, int K_, class AFragment, class AMemory, class Accumulator, long long kInputMin,
          long long kInputMax, long long kAccumulatorMin, long long kAccumulatorMax>
struct Dense {
  static constexpr int M = M_, N = N_, K = K_;
  using a_fragment = AFragment;
  using b_fragment = AFragment;
  using a_memory = AMemory;
  using b_memory = AMemory;
  using accumulator = Accumulator;
  static constexpr int element_bits = Element<AMemory>::bits;
  static constexpr bool packed = false;
  static constexpr Range inputs = {kInputMin, kInputMax};
  static constexpr Range accumulator_values = {kAccumulatorMin, kAccumulatorMax};

  template <class D, class A, class B>
  __device__ static void multiply(D& d, const A& a, const B& b, const D& c) {
    wmma::mma_sync(d, a, b, c);
  }
};

// Sub-byte operands (5.4.11.4): `bits`-bit elements packed into 32-bit words, lowest element in the lowest bits.
// kBitOp is 0 for u4/s4 (multiply-add), bmmaBitOpXOR or bmmaBitOpAND for b1 (D = popc(A op B) + C).
template <int M_, int N_, int K_, class Fragment, int kBits, int kBitOp, long long kInputMin, long long kInputMax>
struct Packed {
  static constexpr int M = M_, N = N_, K = K_;
  using a_fragment = Fragment;
  using b_fragment = Fragment;
  using a_memory = unsigned;
  using b_memory = unsigned;
  using accumulator = int;
  static constexpr int element_bits = kBits;
  static constexpr bool packed = true;
  static constexpr int bit_op = kBitOp;
  static constexpr Range inputs = {kInputMin, kInputMax};
  static constexpr Range accumulator_values = {-1000, 1000};

  template <class D, class A, class B>
  __device__ static void multiply(D& d, const A& a, const B& b, const D& c) {
    if constexpr (kBitOp == 0) {
      wmma::mma_sync(d, a, b, c);
    } else {
      wmma::bmma_sync(d, a, b, c, static_cast<experimental::bmmaBitOp>(kBitOp), experimental::bmmaAccumulateOpPOPC);
    }
  }
};

// ---- The kernel ---------------------------------------------------------------------------------------------------

template <class C, class LayoutA, class LayoutB>
__global__ void multiply_tile(const typename C::a_memory* a, unsigned lda, const typename C::b_memory* b, unsigned ldb,
                              const typename C::accumulator* c, unsigned ldc, typename C::accumulator* d, unsigned ldd,
                              wmma::layout_t accumulator_layout) {
  wmma::fragment<wmma::matrix_a, C::M, C::N, C::K, typename C::a_fragment, LayoutA> fa;
  wmma::fragment<wmma::matrix_b, C::M, C::N, C::K, typename C::b_fragment, LayoutB> fb;
  wmma::fragment<wmma::accumulator, C::M, C::N, C::K, typename C::accumulator> fc, fd;
  wmma::load_matrix_sync(fa, a, lda);
  wmma::load_matrix_sync(fb, b, ldb);
  wmma::load_matrix_sync(fc, c, ldc, accumulator_layout);
  C::multiply(fd, fa, fb, fc);
  wmma::store_matrix_sync(d, fd, ldd, accumulator_layout);
}

// ---- Host side ----------------------------------------------------------------------------------------------------

// A rows x cols matrix of integers, row by row.
struct Matrix {
  int rows, cols;
  std::vector<long long> values;
  long long operator()(int i, int j) const { return values[static_cast<std::size_t>(i) * cols + j]; }
};

Matrix random_matrix(int rows, int cols, Range range, std::mt19937& random);

// The leading dimension, in elements, for `dim` elements of `bits` bits: the smallest multiple of 16 bytes (what
// ldm must be) that holds them, plus 32 bytes when padded.
unsigned leading_dimension(int dim, int bits, bool padded);

// Where element (i, j) of a matrix with the given layout and leading dimension lies, in elements.
inline std::size_t offset(Major major, unsigned ld, int i, int j) {
  return major == Major::kRow ? static_cast<std::size_t>(i) * ld + j : static_cast<std::size_t>(j) * ld + i;
}
inline Major major_of(wmma::layout_t layout) { return layout == wmma::mem_row_major ? Major::kRow : Major::kCol; }

// A matrix in memory, one element per memory element; `poison` everywhere outside the matrix.
template <class T>
std::vector<T> place(const Matrix& m, Major major, unsigned ld, T poison) {
  std::vector<T> memory(static_cast<std::size_t>(ld) * (major == Major::kRow ? m.rows : m.cols), poison);
  for (int i = 0; i < m.rows; ++i)
    for (int j = 0; j < m.cols; ++j) memory[offset(major, ld, i, j)] = Element<T>::from(m(i, j));
  return memory;
}

// A matrix of `bits`-bit elements packed into 32-bit words; every bit outside the matrix is set.
std::vector<unsigned> place_packed(const Matrix& m, Major major, unsigned ld, int bits);

// D = A*B + C, or for b1 D = popc(A op B) + C.
Matrix reference(const Matrix& a, const Matrix& b, const Matrix& c, int bit_op);

// The value each accumulator type's D buffer is filled with before the store.
template <class T>
T sentinel() {
  return Element<T>::from(-1234);
}
template <>
inline int sentinel<int>() {
  return 0x5A5A5A5A;
}

// Compares D (read back in the case's layout) with the reference, and checks that its padding is untouched.
template <class T>
::testing::AssertionResult MatchesReference(const std::vector<T>& d, Major major, unsigned ld, const Matrix& expected) {
  std::ostringstream shown;
  int wrong = 0, overwritten = 0;
  const std::size_t rows_or_cols = major == Major::kRow ? expected.rows : expected.cols;
  const int tile_extent = major == Major::kRow ? expected.cols : expected.rows;
  for (std::size_t line = 0; line < rows_or_cols; ++line) {
    for (unsigned k = 0; k < ld; ++k) {
      const long double got = Element<T>::value(d[line * ld + k]);
      if (static_cast<int>(k) >= tile_extent) {
        if (got != Element<T>::value(sentinel<T>()) && overwritten++ < 4) {
          shown << "\n  padding element " << line * ld + k << " was overwritten with " << static_cast<double>(got);
        }
        continue;
      }
      const int i = major == Major::kRow ? static_cast<int>(line) : static_cast<int>(k);
      const int j = major == Major::kRow ? static_cast<int>(k) : static_cast<int>(line);
      if (got == static_cast<long double>(expected(i, j))) continue;
      if (wrong++ < 6) {
        shown << "\n  D(" << i << "," << j << "): " << static_cast<double>(got) << ", expected " << expected(i, j);
      }
    }
  }
  if (wrong == 0 && overwritten == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << wrong << " of " << expected.rows * expected.cols << " elements of D differ, "
                                       << overwritten << " padding elements overwritten" << shown.str();
}

template <class C, class LayoutA, class LayoutB>
::testing::AssertionResult run_layouts(const Case& test_case, unsigned seed) {
  std::mt19937 random(seed);
  const Matrix a = random_matrix(C::M, C::K, C::inputs, random);
  const Matrix b = random_matrix(C::K, C::N, C::inputs, random);
  const Matrix c = random_matrix(C::M, C::N, C::accumulator_values, random);
  int bit_op = 0;
  if constexpr (C::packed) bit_op = C::bit_op;
  const Matrix expected = reference(a, b, c, bit_op);

  // A is M x K, B is K x N, C and D are M x N; the leading dimension counts elements along a row (row-major) or a
  // column (column-major).
  const unsigned lda = leading_dimension(test_case.a == Major::kRow ? C::K : C::M, C::element_bits, test_case.padded);
  const unsigned ldb = leading_dimension(test_case.b == Major::kRow ? C::N : C::K, C::element_bits, test_case.padded);
  const Major acc_major = major_of(test_case.accumulator);
  const int acc_bits = 8 * sizeof(typename C::accumulator);
  const unsigned ldc = leading_dimension(acc_major == Major::kRow ? C::N : C::M, acc_bits, test_case.padded);

  std::vector<typename C::a_memory> a_memory;
  std::vector<typename C::b_memory> b_memory;
  if constexpr (C::packed) {
    a_memory = place_packed(a, test_case.a, lda, C::element_bits);
    b_memory = place_packed(b, test_case.b, ldb, C::element_bits);
  } else {
    a_memory = place(a, test_case.a, lda, Element<typename C::a_memory>::from(64));
    b_memory = place(b, test_case.b, ldb, Element<typename C::b_memory>::from(64));
  }
  using Acc = typename C::accumulator;
  const std::vector<Acc> c_memory = place(c, acc_major, ldc, Element<Acc>::from(64));
  const std::vector<Acc> d_initial(c_memory.size(), sentinel<Acc>());

  cuconform::DeviceBuffer<typename C::a_memory> device_a(a_memory);
  cuconform::DeviceBuffer<typename C::b_memory> device_b(b_memory);
  cuconform::DeviceBuffer<Acc> device_c(c_memory), device_d(d_initial);
  cuconform::launch(multiply_tile<C, LayoutA, LayoutB>, 1, 32, device_a.get(), lda, device_b.get(), ldb, device_c.get(),
                    ldc, device_d.get(), ldc, test_case.accumulator);
  return MatchesReference(device_d.to_host(), acc_major, ldc, expected);
}

// Runs configuration C for the case: D = A*B + C with every element checked against the reference.
template <class C>
::testing::AssertionResult MatchesHostReference(const Case& test_case, unsigned seed = 2024) {
  using wmma::col_major;
  using wmma::row_major;
  if (test_case.a == Major::kRow && test_case.b == Major::kCol)
    return run_layouts<C, row_major, col_major>(test_case, seed);
  if constexpr (!C::packed) {
    if (test_case.a == Major::kRow) return run_layouts<C, row_major, row_major>(test_case, seed);
    if (test_case.b == Major::kCol) return run_layouts<C, col_major, col_major>(test_case, seed);
    return run_layouts<C, col_major, row_major>(test_case, seed);
  }
  return ::testing::AssertionFailure() << "sub-byte fragments are row_major A and col_major B only";
}

}  // namespace cuconform_wmma
