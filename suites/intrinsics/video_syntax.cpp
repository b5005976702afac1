#include "video_syntax.h"

#include <stdexcept>
#include <vector>

namespace cuconform_intrinsics::video {

namespace {

[[noreturn]] void reject(std::string_view what, std::string_view text) {
  throw std::invalid_argument(std::string(what) + ": '" + std::string(text) + "'");
}

std::vector<std::string_view> split(std::string_view text) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t dot = text.find('.', start);
    const std::size_t end = dot == std::string_view::npos ? text.size() : dot;
    parts.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

bool read_type(std::string_view part, std::string_view opcode) {
  if (part == "s32") return true;
  if (part == "u32") return false;
  reject("a type of a SIMD video instruction is .u32 or .s32", opcode);
}

Compare read_compare(std::string_view part, std::string_view opcode) {
  if (part == "eq") return Compare::kEq;
  if (part == "ne") return Compare::kNe;
  if (part == "lt") return Compare::kLt;
  if (part == "le") return Compare::kLe;
  if (part == "gt") return Compare::kGt;
  if (part == "ge") return Compare::kGe;
  reject("vset's comparison is .eq, .ne, .lt, .le, .gt or .ge", opcode);
}

// ".h10" or ".b3210": lane digits, each below `lanes`, in descending order.
unsigned read_mask(std::string_view text, int lanes) {
  const char letter = lanes == 2 ? 'h' : 'b';
  if (text.size() < 3 || text[0] != '.' || text[1] != letter) reject("not a mask of this lane count", text);
  unsigned mask = 0;
  int previous = lanes;
  for (char digit : text.substr(2)) {
    const int lane = digit - '0';
    if (lane < 0 || lane >= previous) reject("a mask names lanes in descending order, each once", text);
    mask |= 1u << lane;
    previous = lane;
  }
  return mask;
}

// ".hxy" / ".bxyzw": one element number per lane, the highest lane first.
void read_selector(std::string_view text, int lanes, std::uint8_t (&select)[4]) {
  const char letter = lanes == 2 ? 'h' : 'b';
  if (text.size() != std::size_t(2 + lanes) || text[0] != '.' || text[1] != letter) {
    reject("not a selector of this lane count", text);
  }
  for (int i = 0; i < lanes; ++i) {
    const int element = text[2 + lanes - 1 - i] - '0';
    if (element < 0 || element >= 2 * lanes) reject("a selector names elements 0 to 2 * lanes - 1", text);
    select[i] = std::uint8_t(element);
  }
}

}  // namespace

Instruction parse_instruction(std::string_view opcode, std::string_view mask, std::string_view asel,
                              std::string_view bsel) {
  const std::vector<std::string_view> parts = split(opcode);
  struct Name {
    std::string_view text;
    Op op;
  };
  static constexpr Name kNames[] = {{"vadd", Op::kAdd},         {"vsub", Op::kSub}, {"vavrg", Op::kAvrg},
                                    {"vabsdiff", Op::kAbsdiff}, {"vmin", Op::kMin}, {"vmax", Op::kMax},
                                    {"vset", Op::kSet}};
  Instruction in{};
  bool known = false;
  for (const Name& name : kNames) {
    for (int lanes : {2, 4}) {
      if (parts[0] == std::string(name.text) + char('0' + lanes)) {
        in.op = name.op;
        in.lanes = lanes;
        known = true;
      }
    }
  }
  if (!known) reject("not one of the SIMD video instructions of PG12.9 10.41", opcode);

  std::size_t next = 1;
  auto take = [&]() -> std::string_view {
    if (next >= parts.size()) reject("too few modifiers", opcode);
    return parts[next++];
  };
  if (in.op == Op::kSet) {
    in.a_signed = read_type(take(), opcode);
    in.b_signed = read_type(take(), opcode);
    in.compare = read_compare(take(), opcode);
  } else {
    in.d_signed = read_type(take(), opcode);
    in.a_signed = read_type(take(), opcode);
    in.b_signed = read_type(take(), opcode);
  }
  for (; next < parts.size(); ++next) {
    if (parts[next] == "sat" && in.op != Op::kSet && !in.sat) {
      in.sat = true;
    } else if (parts[next] == "add" && !in.add) {
      in.add = true;
    } else {
      reject("unknown or repeated modifier ." + std::string(parts[next]), opcode);
    }
  }

  if (in.sat && in.add) reject("saturation cannot be used with the secondary accumulate operation", opcode);

  const bool two = in.lanes == 2;
  in.mask = read_mask(mask.empty() ? (two ? ".h10" : ".b3210") : mask, in.lanes);
  read_selector(asel.empty() ? (two ? ".h10" : ".b3210") : asel, in.lanes, in.asel);
  read_selector(bsel.empty() ? (two ? ".h32" : ".b7654") : bsel, in.lanes, in.bsel);
  return in;
}

std::string instruction_text(std::string_view opcode, std::string_view mask, std::string_view asel,
                             std::string_view bsel) {
  return std::string(opcode) + " d" + std::string(mask) + ", a" + std::string(asel) + ", b" + std::string(bsel) + ", c";
}

}  // namespace cuconform_intrinsics::video
