// Host side of the sweep engine: the fault switch, the messages and the edge-case lists.
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <cuconform/profile.h>

#include "formats.h"

namespace cuconform::lowp {

std::uint32_t simulated_fault() {
  const char* text = std::getenv("CUCONFORM_LOWP_SIMULATE");
  if (text == nullptr || *text == '\0') return 0;
  if (std::string(text) == "flip-low-bit") return 1;
  throw std::invalid_argument("CUCONFORM_LOWP_SIMULATE must be flip-low-bit");
}

std::string hex(std::uint64_t value, int digits) {
  std::ostringstream out;
  out << "0x" << std::hex << std::setw(digits) << std::setfill('0') << value;
  return out.str();
}

std::string describe_result(Format f, std::uint32_t bits) {
  std::ostringstream out;
  out << hex(bits, (width_of(f) + 3) / 4) << " (" << std::setprecision(9) << value_of(f, bits) << ")";
  return out.str();
}

std::vector<std::uint64_t> float_edges_around(Format f) {
  std::vector<std::uint64_t> edges;
  const std::uint32_t count = 1u << (width_of(f) - 1);
  // The quick profile takes every 4th value's edges, but all of them in the subnormals, the first normal binade
  // and the top binade (where rounding meets underflow and overflow); the full profile every value's.
  const std::uint32_t stride = full_profile() ? 1 : 4;
  const std::uint32_t low = 2u << f.mantissa_bits;
  const std::uint32_t high = largest_finite_code(f) - (1u << f.mantissa_bits);
  for (std::uint32_t magnitude = 0; magnitude < count; ++magnitude) {
    if (is_nan_bits(f, magnitude)) continue;
    if (magnitude % stride != 0 && magnitude >= low && magnitude < high) continue;
    const float value = value_of(f, magnitude);
    if (std::isinf(value)) continue;
    const std::uint32_t bits = bits_of(value);
    for (std::uint32_t sign : {0u, 0x80000000u}) {
      edges.push_back(bits | sign);
      edges.push_back((bits + 1) | sign);
      if (bits != 0) edges.push_back((bits - 1) | sign);
      // The midpoint to the next value up (past the largest finite: the overflow threshold of round-to-nearest).
      const bool largest = magnitude == largest_finite_code(f);
      const int top_exponent = static_cast<int>(largest_finite_code(f) >> f.mantissa_bits) - bias_of(f);
      const double next = largest ? double(value) + std::ldexp(1.0, top_exponent - f.mantissa_bits)
                                  : double(value_of(f, magnitude + 1));
      const double mid = (double(value) + next) / 2;
      const std::uint32_t mid_bits = bits_of(static_cast<float>(mid));  // exact: a few bits more than f has
      edges.push_back(mid_bits | sign);
      edges.push_back((mid_bits + 1) | sign);
      edges.push_back((mid_bits - 1) | sign);
      if (largest) {
        const std::uint32_t next_bits = bits_of(static_cast<float>(next));
        edges.push_back(next_bits | sign);
        edges.push_back((next_bits - 1) | sign);
      }
    }
  }
  for (std::uint32_t special :
       {0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x7fbfffffu, 0xffffffffu, 0x7f7fffffu,
        0xff7fffffu, 0x00000001u, 0x80000001u, 0x007fffffu, 0x00800000u, 0x80800000u}) {
    edges.push_back(special);
  }
  return edges;
}

std::vector<std::uint16_t> special_values(Format f) {
  const std::uint32_t sign = sign_bit(f);
  const std::uint32_t one = static_cast<std::uint32_t>(bias_of(f)) << f.mantissa_bits;
  const std::uint32_t min_normal = 1u << f.mantissa_bits;
  const std::uint32_t largest = largest_finite_code(f);
  std::vector<std::uint32_t> magnitudes = {0,
                                           1,
                                           2,
                                           3,
                                           min_normal - 1,
                                           min_normal,
                                           min_normal + 1,
                                           one - 1,
                                           one,
                                           one + 1,
                                           one + min_normal,             // 2
                                           one - min_normal,             // 0.5
                                           one + (min_normal >> 1),      // 1.5
                                           one + (min_normal >> 1) + 1,  //
                                           largest,
                                           largest - 1,
                                           largest - min_normal,  // half the largest
                                           infinity_code(f),
                                           infinity_code(f) + 1,  // a signalling NaN
                                           canonical_nan(f)};
  std::vector<std::uint16_t> values;
  for (std::uint32_t m : magnitudes) {
    values.push_back(static_cast<std::uint16_t>(m));
    values.push_back(static_cast<std::uint16_t>(m | sign));
  }
  return values;
}

}  // namespace cuconform::lowp
