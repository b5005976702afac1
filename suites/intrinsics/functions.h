// The intrinsics under test: one enumerator per intrinsic, the kind of inputs each takes, and its name.
// The SIMD intrinsics come in a 2-lane (16-bit halfword) and a 4-lane (byte) form: __vadd2 and __vadd4.
#pragma once

#include <cstdint>
#include <string>

namespace cuconform_intrinsics {

// The SIMD intrinsics, by operation: X(operation) names __v<operation>2 and __v<operation>4.
#define CUCONFORM_SIMD_UNARY(X) X(abs) X(absss) X(neg) X(negss)
// clang-format off
#define CUCONFORM_SIMD_BINARY(X)                                                                                  \
  X(add) X(addss) X(addus) X(sub) X(subss) X(subus) X(avgs) X(avgu) X(haddu) X(absdiffs) X(absdiffu) X(maxs)   \
  X(maxu) X(mins) X(minu) X(sads) X(sadu) X(cmpeq) X(cmpges) X(cmpgeu) X(cmpgts) X(cmpgtu) X(cmples) X(cmpleu) \
  X(cmplts) X(cmpltu) X(cmpne) X(seteq) X(setges) X(setgeu) X(setgts) X(setgtu) X(setles) X(setleu) X(setlts) \
  X(setltu) X(setne)
// clang-format on

// clang-format off
enum Function : std::uint16_t {
  kPopc, kPopcll, kClz, kClzll, kFfs, kFfsll, kBrev, kBrevll,
  kBytePerm,
  kFunnelshiftL, kFunnelshiftLc, kFunnelshiftR, kFunnelshiftRc,
  kMul24, kUmul24, kMulhi, kUmulhi, kMul64hi, kUmul64hi,
  kSad, kUsad,
  kHadd, kRhadd, kUhadd, kUrhadd,
  kDp4aSigned, kDp4aUnsigned, kDp2aLoSigned, kDp2aLoUnsigned, kDp2aHiSigned, kDp2aHiUnsigned,
  // The vector-typed overloads (char4, uchar4, short2, ushort2 operands) of the same six.
  kDp4aSignedVector, kDp4aUnsignedVector, kDp2aLoSignedVector, kDp2aLoUnsignedVector, kDp2aHiSignedVector,
  kDp2aHiUnsignedVector,
  // PG12.9 10.41: the guide's inline-PTX example, vabsdiff4.u32.u32.u32.add.
  kPtxVabsdiff4Add,
#define CUCONFORM_SIMD_ENUM(op) k_v##op##2, k_v##op##4,
  CUCONFORM_SIMD_UNARY(CUCONFORM_SIMD_ENUM) CUCONFORM_SIMD_BINARY(CUCONFORM_SIMD_ENUM)
#undef CUCONFORM_SIMD_ENUM
  kFunctionCount
};
// clang-format on

// How the sweep makes input number i (0 <= i < 2^32) for a function: generate() in model.h.
enum class Domain : std::uint8_t {
  Unary32,      // a = i: every 32-bit input
  Unary64,      // a: i in the low half, pseudo-random high half, shifted right by a pseudo-random amount
  Pair32,       // a = i, b pseudo-random
  Pair64,       // a, b pseudo-random, sometimes shifted right (arithmetically) to vary their magnitude
  Triple32,     // a = i, b and c pseudo-random
  Shift,        // lo, hi pseudo-random, shift = i: every shift amount
  BytePerm,     // s = i & 0x7777 (every selector whose nibbles have bit 3 clear) with pseudo-random x, y, s[31:16]
  BytePermAll,  // s = i & 0xffff: every selector, bit 3 of each nibble included
  Lanes16,      // a = i, b = rotate(i, 16) ^ 0x80008000: every pair of halfwords in each lane
  Lanes8,       // a = i, b = rotate(i, 8) ^ 0x80808080: every pair of bytes in each lane
};

struct Operands {
  std::uint64_t a, b, c;
};

// A function's result as a 64-bit pattern: 32-bit results (int or unsigned) zero-extended.
using Result = std::uint64_t;

const char* name_of(Function f);  // "__popc", "__vadd2", "vabsdiff4.u32.u32.u32.add"
int arity_of(Function f);         // 1, 2 or 3
Domain domain_of(Function f);     // the sweep's inputs for f
bool is_simd(Function f);

// CUCONFORM_INTRINSICS_SIMULATE=<intrinsic>[:blind-filter]: the intrinsic whose device wrapper returns a wrong
// value, or kFunctionCount when the variable is unset or empty. Throws std::invalid_argument for a name that is no
// intrinsic of this area. With ":blind-filter" the sweep's device filter also lets every input pass, as a device
// copy of the model miscompiled into agreeing with the wrong intrinsic would: only the audit sample and the list
// can then see the wrong values.
Function simulated_function();
bool simulation_blinds_filter();

namespace video {
// Whether `name` is one of the SIMD video instructions of video_simd.cu, which simulate themselves (video_check.h):
// simulated_function() returns kFunctionCount for such a name.
bool names_a_video_variant(const std::string& name);
}  // namespace video

}  // namespace cuconform_intrinsics
