// PG12.9 10.41 SIMD video instructions: what one instruction computes, written from the PTX ISA's semantics of the
// instructions the guide lists (PTX ISA 9.0, "SIMD Video Instructions": vadd2/vsub2/vavrg2/vabsdiff2/vmin2/vmax2,
// their four-lane forms, vset2 and vset4). The guide names them and sends the reader to the PTX ISA for what they
// do; README.md quotes each statement a rule checks.
//
// An instruction works on 2 lanes of 16 bits or 4 lanes of 8 bits:
//   1. each lane i takes element asel[i] of a and element bsel[i] of b, counting the elements of a first and then
//      those of b (halfwords 0-3, bytes 0-7), sign- or zero-extended by the operand's own type (.atype, .btype);
//   2. the operation on the two extended values, exactly (t[i]); vset compares them and gives 1 or 0;
//   3. .sat clamps t[i] to the range of a lane of the destination type (signed or unsigned);
//   4. the secondary operation: merge (lane i of d is t[i] where the mask names lane i, else lane i of c) or .add
//      (d = c plus the t[i] of the lanes the mask names, modulo 2^32).
#pragma once

#include <cstdint>

#include "model.h"

namespace cuconform_intrinsics::video {

enum class Op : std::uint8_t { kAdd, kSub, kAvrg, kAbsdiff, kMin, kMax, kSet };
enum class Compare : std::uint8_t { kNone, kEq, kNe, kLt, kLe, kGt, kGe };

// One instruction, as its text spells it (video_syntax.h reads the text into this).
struct Instruction {
  Op op;
  int lanes;      // 2 (halfwords) or 4 (bytes)
  bool d_signed;  // .dtype .s32 (vset has none: its results are unsigned)
  bool a_signed, b_signed;
  bool sat;              // .sat
  bool add;              // .add: the secondary accumulate; otherwise the secondary merge
  Compare compare;       // vset's .cmp
  unsigned mask;         // bit i: lane i takes the result (.h10 / .b3210 by default: every lane)
  std::uint8_t asel[4];  // lane i takes element asel[i] of {a, b} (.h10 / .b3210 by default: a's own lanes)
  std::uint8_t bsel[4];  // and element bsel[i] (.h32 / .b7654 by default: b's own lanes)
};

using i64 = std::int64_t;
using u32 = std::uint32_t;

// Element k of the 2 * lanes elements of {a, b}: a's lanes are 0 .. lanes-1, b's follow.
CUCONFORM_HOST_DEVICE inline u32 element(u32 a, u32 b, int k, int lanes) {
  const int width = 32 / lanes;
  const u32 word = k < lanes ? a : b;
  return (word >> (width * (k % lanes))) & ((1u << width) - 1u);
}

CUCONFORM_HOST_DEVICE inline i64 extend(u32 lane, int width, bool is_signed) {
  const i64 value = i64(lane);
  return is_signed && (lane >> (width - 1)) ? value - (i64(1) << width) : value;
}

CUCONFORM_HOST_DEVICE inline i64 clamp(i64 t, i64 low, i64 high) { return t < low ? low : t > high ? high : t; }

// t[i] of step 2, before saturation.
CUCONFORM_HOST_DEVICE inline i64 operate(const Instruction& in, i64 va, i64 vb) {
  switch (in.op) {
    case Op::kAdd: return va + vb;
    case Op::kSub: return va - vb;
    case Op::kAvrg: {
      // PTX: "if ((Va + Vb) >= 0) t = (Va + Vb + 1) >> 1; else t = (Va + Vb) >> 1", the shift arithmetic: halves
      // round away from zero. Written with division so that no negative value is shifted.
      const i64 sum = va + vb;
      return sum >= 0 ? (sum + 1) / 2 : -((-sum + 1) / 2);
    }
    case Op::kAbsdiff: return va > vb ? va - vb : vb - va;
    case Op::kMin: return va < vb ? va : vb;
    case Op::kMax: return va > vb ? va : vb;
    case Op::kSet:
      switch (in.compare) {
        case Compare::kEq: return va == vb;
        case Compare::kNe: return va != vb;
        case Compare::kLt: return va < vb;
        case Compare::kLe: return va <= vb;
        case Compare::kGt: return va > vb;
        case Compare::kGe: return va >= vb;
        case Compare::kNone: return -1;
      }
  }
  return -1;
}

// d of `in` for the operands a, b, c.
CUCONFORM_HOST_DEVICE inline u32 evaluate(const Instruction& in, u32 a, u32 b, u32 c) {
  const int width = 32 / in.lanes;
  const u32 lane_bits = (1u << width) - 1u;
  u32 merged = 0;
  i64 accumulated = i64(c);
  for (int i = 0; i < in.lanes; ++i) {
    const i64 va = extend(element(a, b, in.asel[i], in.lanes), width, in.a_signed);
    const i64 vb = extend(element(a, b, in.bsel[i], in.lanes), width, in.b_signed);
    i64 t = operate(in, va, vb);
    if (in.sat) {
      t = in.d_signed ? clamp(t, -(i64(1) << (width - 1)), (i64(1) << (width - 1)) - 1)
                      : clamp(t, 0, (i64(1) << width) - 1);
    }
    const bool selected = (in.mask >> i) & 1u;
    if (selected) accumulated += t;
    const u32 lane = selected ? u32(std::uint64_t(t)) & lane_bits : (c >> (width * i)) & lane_bits;
    merged |= lane << (width * i);
  }
  return in.add ? u32(std::uint64_t(accumulated)) : merged;
}

}  // namespace cuconform_intrinsics::video
