#include "wmma_tile.h"

#include <bitset>

namespace cuconform_wmma {

std::vector<Case> every_layout() {
  std::vector<Case> cases;
  for (Major a : {Major::kRow, Major::kCol})
    for (Major b : {Major::kRow, Major::kCol})
      for (wmma::layout_t acc : {wmma::mem_row_major, wmma::mem_col_major})
        for (bool padded : {false, true}) cases.push_back({a, b, acc, padded});
  return cases;
}

std::vector<Case> sub_byte_layouts() {
  std::vector<Case> cases;
  for (wmma::layout_t acc : {wmma::mem_row_major, wmma::mem_col_major})
    for (bool padded : {false, true}) cases.push_back({Major::kRow, Major::kCol, acc, padded});
  return cases;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const Case& c = info.param;
  return std::string("A") + (c.a == Major::kRow ? "Row" : "Col") + "B" + (c.b == Major::kRow ? "Row" : "Col") + "Acc" +
         (c.accumulator == wmma::mem_row_major ? "Row" : "Col") + (c.padded ? "Padded" : "Tight");
}

void PrintTo(const Case& c, std::ostream* out) {
  *out << "A " << (c.a == Major::kRow ? "row_major" : "col_major") << ", B "
       << (c.b == Major::kRow ? "row_major" : "col_major") << ", C and D "
       << (c.accumulator == wmma::mem_row_major ? "mem_row_major" : "mem_col_major")
       << (c.padded ? ", ldm 32 bytes beyond the tile" : ", smallest ldm");
}

Matrix random_matrix(int rows, int cols, Range range, std::mt19937& random) {
  Matrix m{rows, cols, std::vector<long long>(static_cast<std::size_t>(rows) * cols)};
  std::uniform_int_distribution<long long> value(range.min, range.max);
  std::uniform_int_distribution<int> pick(0, 7);
  for (long long& v : m.values) {
    switch (pick(random)) {  // the extremes of the range, often
      case 0: v = range.min; break;
      case 1: v = range.max; break;
      default: v = value(random);
    }
  }
  return m;
}

unsigned leading_dimension(int dim, int bits, bool padded) {
  const int bytes = (dim * bits + 7) / 8;
  const int rounded = (bytes + 15) / 16 * 16;
  return static_cast<unsigned>(rounded * 8 / bits + (padded ? 256 / bits : 0));
}

std::vector<unsigned> place_packed(const Matrix& m, Major major, unsigned ld, int bits) {
  const std::size_t elements = static_cast<std::size_t>(ld) * (major == Major::kRow ? m.rows : m.cols);
  std::vector<unsigned> memory((elements * bits + 31) / 32, 0xFFFFFFFFu);
  const unsigned mask = (1u << bits) - 1;
  for (int i = 0; i < m.rows; ++i) {
    for (int j = 0; j < m.cols; ++j) {
      const std::size_t bit = offset(major, ld, i, j) * bits;
      unsigned& word = memory[bit / 32];
      const unsigned shift = bit % 32;
      word = (word & ~(mask << shift)) | ((static_cast<unsigned>(m(i, j)) & mask) << shift);
    }
  }
  return memory;
}

Matrix reference(const Matrix& a, const Matrix& b, const Matrix& c, int bit_op) {
  Matrix d = c;
  for (int i = 0; i < a.rows; ++i) {
    for (int j = 0; j < b.cols; ++j) {
      long long sum = c(i, j);
      for (int k = 0; k < a.cols; ++k) {
        switch (bit_op) {
          case 0: sum += a(i, k) * b(k, j); break;
          case experimental::bmmaBitOpXOR: sum += a(i, k) ^ b(k, j); break;
          case experimental::bmmaBitOpAND: sum += a(i, k) & b(k, j); break;
        }
      }
      d.values[static_cast<std::size_t>(i) * d.cols + j] = sum;
    }
  }
  return d;
}

}  // namespace cuconform_wmma
