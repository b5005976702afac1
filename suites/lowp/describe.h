// Inputs as the messages print them.
#pragma once

#include <cstdint>
#include <iomanip>
#include <sstream>
#include <string>

#include "formats.h"

namespace cuconform::lowp {

std::string hex(std::uint64_t value, int digits);
std::string describe_result(Format f, std::uint32_t bits);

inline std::string describe_float(std::uint32_t bits) {
  std::ostringstream out;
  out << hex(bits, 8) << " (" << std::setprecision(9) << float_from_bits(bits) << ")";
  return out.str();
}

// The 16-bit operands packed in an input word, lane 0 in the low bits: "0x3c00 (1), 0x4000 (2)".
inline std::string describe_operands(Format f, std::uint64_t input, int count) {
  std::string text;
  for (int i = 0; i < count; ++i) {
    if (i) text += ", ";
    text += describe_result(f, static_cast<std::uint32_t>((input >> (16 * (count - 1 - i))) & 0xffff));
  }
  return text;
}

}  // namespace cuconform::lowp
