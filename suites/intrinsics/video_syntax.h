// The text of a SIMD video instruction (PTX ISA 9.0 syntax, as PG12.9 10.41's asm() example writes it) read into
// the Instruction the model evaluates: the rules name each instruction once, by its text, and both the asm()
// statement and the model come from that text.
//
//   vop2.dtype.atype.btype{.sat}  d{.mask}, a{.asel}, b{.bsel}, c;    vop2 = vadd2 vsub2 vavrg2 vabsdiff2 vmin2 vmax2
//   vop2.dtype.atype.btype.add    d{.mask}, a{.asel}, b{.bsel}, c;    (vop4 the same with four byte lanes)
//   vset2.atype.btype.cmp{.add}   d{.mask}, a{.asel}, b{.bsel}, c;    .cmp = .eq .ne .lt .le .gt .ge
//
// Masks: .h0 .h1 .h10 (two lanes), .b<lanes, descending> such as .b3210 .b20 (four). Selectors: .hxy (x, y in 0-3:
// the halfwords of a, then of b; x feeds lane 1, y lane 0) and .bxyzw (bytes 0-7; x feeds lane 3).
#pragma once

#include <string>
#include <string_view>

#include "video_model.h"

namespace cuconform_intrinsics::video {

// Throws std::invalid_argument, naming the part that is not an instruction of PG12.9 10.41's list. An empty modifier
// is its default (.h10/.b3210 for the mask and asel, .h32/.b7654 for bsel).
Instruction parse_instruction(std::string_view opcode, std::string_view mask, std::string_view asel,
                              std::string_view bsel);

// "vadd4.s32.u32.s32.sat d.b20, a.b7210, b.b0000, c": the instruction as a failure message names it.
std::string instruction_text(std::string_view opcode, std::string_view mask, std::string_view asel,
                             std::string_view bsel);

}  // namespace cuconform_intrinsics::video
