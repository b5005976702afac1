// 5.4.11.1-5.4.11.4: what the warp matrix functions do besides the table of shapes: fill_fragment, element access
// through x[num_elements], the in-place C = A*B + C, operands in shared memory, the round-to-nearest-even of double
// mma_sync, __float_to_tf32, and the storage types of the fragments.
#include "wmma_tile.h"

#include <cmath>
#include <cstring>
#include <type_traits>

namespace {

using namespace cuconform_wmma;

using HalfFloat16 = Dense<16, 16, 16, __half, __half, float, -4, 4, -16, 16>;

class WmmaFragment : public cuconform::GpuTest {
 protected:
  void SetUp() override {
    cuconform::GpuTest::SetUp();
    if (IsSkipped()) return;
    REQUIRE_CC(8, 0);  // the double and tf32 fragments below; the others need 7.0
  }
};

// ---- fill_fragment ------------------------------------------------------------------------------------------------

template <int M, int N, int K, class T>
__global__ void fill_and_store(T value, T* d) {
  wmma::fragment<wmma::accumulator, M, N, K, T> f;
  wmma::fill_fragment(f, value);
  wmma::store_matrix_sync(d, f, N, wmma::mem_row_major);
}

template <int M, int N, int K, class T>
::testing::AssertionResult FillsEveryElement(T value) {
  cuconform::DeviceBuffer<T> d(std::vector<T>(M * N, sentinel<T>()));
  cuconform::launch(fill_and_store<M, N, K, T>, 1, 32, value, d.get());
  const Matrix expected{M, N, std::vector<long long>(M * N, static_cast<long long>(Element<T>::value(value)))};
  return MatchesReference(d.to_host(), Major::kRow, N, expected);
}

RULE_F(WmmaFragment, FillFragmentSetsEveryAccumulatorElement, "5.4.11.1",
       "fill_fragment sets every element of an accumulator fragment (float, __half, int, double) to the value") {
  EXPECT_TRUE((FillsEveryElement<16, 16, 16, float>(-7.0f)));
  EXPECT_TRUE((FillsEveryElement<16, 16, 16, __half>(Element<__half>::from(3))));
  EXPECT_TRUE((FillsEveryElement<16, 16, 16, int>(123456)));
  EXPECT_TRUE((FillsEveryElement<8, 8, 4, double>(-1000.0)));
}

// A filled with `a`, B with `b`: D = C + K*a*b.
__global__ void fill_operands(__half a, __half b, const float* c, float* d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fa, a);
  wmma::fill_fragment(fb, b);
  wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

RULE_F(WmmaFragment, FillFragmentSetsEveryOperandElement, "5.4.11.1",
       "fill_fragment sets every element of matrix_a and matrix_b fragments: with A = 2 and B = -3 everywhere, "
       "D = C - 16 * 6") {
  std::mt19937 random(7);
  const Matrix c = random_matrix(16, 16, {-100, 100}, random);
  Matrix expected = c;
  for (long long& v : expected.values) v -= 16 * 6;
  cuconform::DeviceBuffer<float> device_c(place(c, Major::kRow, 16, 0.0f)), d(16 * 16);
  cuconform::launch(fill_operands, 1, 32, Element<__half>::from(2), Element<__half>::from(-3), device_c.get(), d.get());
  EXPECT_TRUE(MatchesReference(d.to_host(), Major::kRow, 16, expected));
}

// ---- Element access -----------------------------------------------------------------------------------------------

// The guide's example: every thread scales every element of its accumulator fragment by the same alpha.
__global__ void scale_accumulator(const float* c, float* d) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> frag;
  wmma::load_matrix_sync(frag, c, 16, wmma::mem_row_major);
  float alpha = 0.5f;  // Same value for all threads in warp
  for (int t = 0; t < frag.num_elements; t++) frag.x[t] *= alpha;
  wmma::store_matrix_sync(d, frag, 16, wmma::mem_row_major);
}

RULE_F(WmmaFragment, ElementAccessScalesEveryElement, "5.4.11.1",
       "applying x[t] *= alpha for t < num_elements in every thread scales every element of the accumulator tile") {
  std::mt19937 random(8);
  const Matrix c = random_matrix(16, 16, {-1000, 1000}, random);
  Matrix doubled = c;  // compare 2 * D with C: the halves are exact
  cuconform::DeviceBuffer<float> device_c(place(c, Major::kRow, 16, 0.0f)), d(16 * 16);
  cuconform::launch(scale_accumulator, 1, 32, device_c.get(), d.get());
  std::vector<float> twice = d.to_host();
  for (float& v : twice) v *= 2;
  EXPECT_TRUE(MatchesReference(twice, Major::kRow, 16, doubled));
}

// ---- In place, and in shared memory -------------------------------------------------------------------------------

__global__ void multiply_in_place(const __half* a, const __half* b, float* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

__global__ void multiply_in_shared_memory(const __half* a, const __half* b, const float* c, float* d) {
  __shared__ __align__(32) __half shared_a[16 * 16], shared_b[16 * 16];
  __shared__ __align__(32) float shared_c[16 * 16], shared_d[16 * 16];
  for (int i = threadIdx.x; i < 16 * 16; i += 32) {
    shared_a[i] = a[i];
    shared_b[i] = b[i];
    shared_c[i] = c[i];
  }
  __syncwarp();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::col_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::load_matrix_sync(fa, shared_a, 16);
  wmma::load_matrix_sync(fb, shared_b, 16);
  wmma::load_matrix_sync(fc, shared_c, 16, wmma::mem_col_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(shared_d, fc, 16, wmma::mem_col_major);
  __syncwarp();
  for (int i = threadIdx.x; i < 16 * 16; i += 32) d[i] = shared_d[i];
}

struct Operands {
  Matrix a, b, c, expected;
};

Operands half_operands(unsigned seed) {
  std::mt19937 random(seed);
  Operands o{random_matrix(16, 16, {-4, 4}, random),
             random_matrix(16, 16, {-4, 4}, random),
             random_matrix(16, 16, {-16, 16}, random),
             {}};
  o.expected = reference(o.a, o.b, o.c, 0);
  return o;
}

RULE_F(WmmaFragment, InPlaceMultiplyAccumulate, "5.4.11.1", "the in-place mma_sync(c, a, b, c) computes C = A*B + C") {
  const Operands o = half_operands(9);
  cuconform::DeviceBuffer<__half> a(place(o.a, Major::kRow, 16, __half{})), b(place(o.b, Major::kRow, 16, __half{}));
  cuconform::DeviceBuffer<float> c(place(o.c, Major::kRow, 16, 0.0f));
  cuconform::launch(multiply_in_place, 1, 32, a.get(), b.get(), c.get());
  EXPECT_TRUE(MatchesReference(c.to_host(), Major::kRow, 16, o.expected));
}

RULE_F(WmmaFragment, OperandsInSharedMemory, "5.4.11.1",
       "load_matrix_sync and store_matrix_sync work on matrices in shared memory as on those in global memory") {
  const Operands o = half_operands(10);
  cuconform::DeviceBuffer<__half> a(place(o.a, Major::kCol, 16, __half{})), b(place(o.b, Major::kRow, 16, __half{}));
  cuconform::DeviceBuffer<float> c(place(o.c, Major::kCol, 16, 0.0f)), d(16 * 16);
  cuconform::launch(multiply_in_shared_memory, 1, 32, a.get(), b.get(), c.get(), d.get());
  EXPECT_TRUE(MatchesReference(d.to_host(), Major::kCol, 16, o.expected));
}

// ---- 5.4.11.7: the guide's example -------------------------------------------------------------------------------

// Verbatim, apart from the namespace alias.
__global__ void wmma_ker(half* a, half* b, float* c) {
  // Declare the fragments
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> a_frag;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c_frag;

  // Initialize the output to zero
  wmma::fill_fragment(c_frag, 0.0f);

  // Load the inputs
  wmma::load_matrix_sync(a_frag, a, 16);
  wmma::load_matrix_sync(b_frag, b, 16);

  // Perform the matrix multiplication
  wmma::mma_sync(c_frag, a_frag, b_frag, c_frag);

  // Store the output
  wmma::store_matrix_sync(c, c_frag, 16, wmma::mem_row_major);
}

RULE_F(WmmaFragment, GuideExampleMultipliesInOneWarp, "5.4.11.7",
       "the guide's wmma_ker, launched with one warp, stores the 16x16 product of column-major A and row-major B, "
       "row-major") {
  std::mt19937 random(12);
  const Matrix a = random_matrix(16, 16, {-4, 4}, random), b = random_matrix(16, 16, {-4, 4}, random);
  const Matrix expected = reference(a, b, Matrix{16, 16, std::vector<long long>(256, 0)}, 0);
  cuconform::DeviceBuffer<half> da(place(a, Major::kCol, 16, half{})), db(place(b, Major::kRow, 16, half{}));
  cuconform::DeviceBuffer<float> dc(std::vector<float>(256, -1.0f));
  cuconform::launch(wmma_ker, 1, 32, da.get(), db.get(), dc.get());
  EXPECT_TRUE(MatchesReference(dc.to_host(), Major::kRow, 16, expected));
}

// ---- 5.4.11.3: double mma_sync rounds to nearest even ------------------------------------------------------------
// Row i of A has its only non-zero element in column i % 4, so every element of D is one exact product plus C,
// rounded once: D(i, j) must be the correctly rounded a*b + c. The values are chosen so that round-to-nearest-even
// differs from rounding toward zero, up or down.

__global__ void multiply_doubles(const double* a, const double* b, const double* c, double* d) {
  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> fc;
  wmma::load_matrix_sync(fa, a, 4);
  wmma::load_matrix_sync(fb, b, 8);
  wmma::load_matrix_sync(fc, c, 8, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, 8, wmma::mem_row_major);
}

RULE_F(WmmaFragment, DoubleMultiplyRoundsToNearestEven, "5.4.11.3",
       "mma_sync on double fragments rounds to nearest even (.rn): each exact a*b plus c is the correctly rounded "
       "sum") {
  const double ulp = std::ldexp(1.0, -52);  // of 1.0
  // A's non-zero elements have few significant bits and B's are powers of two: every product is exact.
  const double a_values[4] = {1.0, 1.0 + ulp, 2.0, 1.0 + 4 * ulp};
  const double b_values[4] = {1.0, 2.0, 0.5, 4.0};
  // Relative to ulp(1): above half of it, below half, exactly half (a tie), and their negatives and multiples.
  const double c_values[8] = {std::ldexp(1.0, -53) + std::ldexp(1.0, -60),
                              std::ldexp(1.0, -53) - std::ldexp(1.0, -60),
                              std::ldexp(1.0, -53),
                              -(std::ldexp(1.0, -54) + std::ldexp(1.0, -61)),
                              -std::ldexp(1.0, -53),
                              std::ldexp(3.0, -53),
                              -std::ldexp(3.0, -54),
                              std::ldexp(1.0, -52) + std::ldexp(1.0, -53)};
  std::vector<double> a(8 * 4, 0.0), b(4 * 8), c(8 * 8), expected(8 * 8);
  for (int i = 0; i < 8; ++i) a[i * 4 + i % 4] = a_values[(i + i / 4) % 4];
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < 8; ++j) b[k * 8 + j] = b_values[(j + k) % 4];
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 8; ++j) {
      const int k = i % 4;  // the only non-zero product of D(i, j)
      const double scale = b_values[(j + k) % 4] * (a_values[(i + i / 4) % 4] >= 2.0 ? 2.0 : 1.0);
      c[i * 8 + j] = c_values[(i + j) % 8] * scale * ((i * 8 + j) % 3 == 0 ? -1.0 : 1.0);
      expected[i * 8 + j] = std::fma(a[i * 4 + k], b[k * 8 + j], c[i * 8 + j]);  // one rounding, to nearest even
    }
  }
  cuconform::DeviceBuffer<double> da(a), db(b), dc(c), dd(8 * 8);
  cuconform::launch(multiply_doubles, 1, 32, da.get(), db.get(), dc.get(), dd.get());
  const std::vector<double> got = dd.to_host();
  for (int e = 0; e < 64; ++e) {
    EXPECT_EQ(got[e], expected[e]) << "D(" << e / 8 << "," << e % 8 << ") with C = " << c[e];
  }
}

// ---- 5.4.11.2: __float_to_tf32 ------------------------------------------------------------------------------------

__global__ void convert_to_tf32(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = wmma::__float_to_tf32(in[i]);
}

RULE_F(WmmaFragment, FloatToTf32GivesATf32Number, "5.4.11.2",
       "__float_to_tf32 returns a float that is tf32 numerically: its 13 low mantissa bits are zero and it is one of "
       "the two tf32 neighbours of the input") {
  // clang-format off
  std::vector<float> inputs{1.0f, -1.0f, 0.0f, 1.0f / 3, -2.0f / 3, 3.14159265f, 1e-30f, -1e30f, 65504.5f,
                            std::ldexp(1.0f, -126), std::ldexp(1.0f, -140), 1.0009765625f + std::ldexp(1.0f, -20)};
  // clang-format on
  std::mt19937 random(11);
  for (int i = 0; i < 4000; ++i) {
    uint32_t bits = random();
    if ((bits & 0x7F800000u) == 0x7F800000u) bits &= ~0x40000000u;  // finite inputs only
    float f;
    std::memcpy(&f, &bits, sizeof f);
    inputs.push_back(f);
  }
  const int n = static_cast<int>(inputs.size());
  cuconform::DeviceBuffer<float> in(inputs), out(n);
  cuconform::launch(convert_to_tf32, cuconform::blocks_for(n, 256), 256, in.get(), out.get(), n);
  const std::vector<float> got = out.to_host();
  int wrong = 0;
  for (int i = 0; i < n && wrong < 8; ++i) {
    uint32_t in_bits, got_bits;
    std::memcpy(&in_bits, &inputs[i], sizeof in_bits);
    std::memcpy(&got_bits, &got[i], sizeof got_bits);
    const uint32_t truncated = in_bits & ~0x1FFFu;  // toward zero, to tf32
    const bool is_tf32 = (got_bits & 0x1FFFu) == 0;
    const bool is_neighbour = got_bits == truncated || got_bits == truncated + 0x2000u;
    if (is_tf32 && is_neighbour) continue;
    ++wrong;
    ADD_FAILURE() << "__float_to_tf32(" << inputs[i] << " = 0x" << std::hex << in_bits << ") = 0x" << got_bits;
  }
}

// ---- Storage types (host rules) -----------------------------------------------------------------------------------

template <class Use, int M, int N, int K, class T, class Layout = void>
using Fragment = wmma::fragment<Use, M, N, K, T, Layout>;

RULE(WmmaFragmentTypes, StorageElementTypes, "5.4.11.4",
     "storage_element_type of a fragment is unsigned for u4 and b1, int for s4, float for precision::tf32, and T for "
     "every other element type T") {
  using experimental::precision::b1;
  using experimental::precision::s4;
  using experimental::precision::u4;
  EXPECT_TRUE(
      (std::is_same_v<Fragment<wmma::matrix_a, 8, 8, 32, u4, wmma::row_major>::storage_element_type, unsigned>));
  EXPECT_TRUE((std::is_same_v<Fragment<wmma::matrix_a, 8, 8, 32, s4, wmma::row_major>::storage_element_type, int>));
  EXPECT_TRUE(
      (std::is_same_v<Fragment<wmma::matrix_a, 8, 8, 128, b1, wmma::row_major>::storage_element_type, unsigned>));
  EXPECT_TRUE(
      (std::is_same_v<Fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major>::storage_element_type,
                      float>));
  EXPECT_TRUE(
      (std::is_same_v<Fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major>::storage_element_type, __half>));
  EXPECT_TRUE((std::is_same_v<Fragment<wmma::accumulator, 8, 8, 4, double>::storage_element_type, double>));
  EXPECT_TRUE((std::is_same_v<Fragment<wmma::accumulator, 16, 16, 16, int>::storage_element_type, int>));
}

template <class F>
void expect_packed(int per_storage_element, const char* what) {
  EXPECT_LT(static_cast<int>(F::num_storage_elements), static_cast<int>(F::num_elements)) << what;
  EXPECT_EQ(static_cast<int>(F::num_elements), per_storage_element * static_cast<int>(F::num_storage_elements)) << what;
}

RULE(WmmaFragmentTypes, SubByteElementsArePacked, "5.4.11.4",
     "sub-byte fragments pack their elements: num_elements counts u4/s4 elements, 8 to a storage element, and b1 "
     "elements, 32 to a storage element, so num_storage_elements is smaller") {
  using experimental::precision::b1;
  using experimental::precision::s4;
  using experimental::precision::u4;
  expect_packed<Fragment<wmma::matrix_a, 8, 8, 32, u4, wmma::row_major>>(8, "u4 matrix_a");
  expect_packed<Fragment<wmma::matrix_b, 8, 8, 32, u4, wmma::col_major>>(8, "u4 matrix_b");
  expect_packed<Fragment<wmma::matrix_a, 8, 8, 32, s4, wmma::row_major>>(8, "s4 matrix_a");
  expect_packed<Fragment<wmma::matrix_b, 8, 8, 32, s4, wmma::col_major>>(8, "s4 matrix_b");
  expect_packed<Fragment<wmma::matrix_a, 8, 8, 128, b1, wmma::row_major>>(32, "b1 matrix_a");
  expect_packed<Fragment<wmma::matrix_b, 8, 8, 128, b1, wmma::col_major>>(32, "b1 matrix_b");
}

}  // namespace
