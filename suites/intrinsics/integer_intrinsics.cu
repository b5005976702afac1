// CUDA Math API 13.0 "Integer Intrinsics": each intrinsic against its documented result (model.h), over the sweep
// and the edge and random inputs of sweep.h. Results are compared as bit patterns, every input.
#include <cuconform/cuconform.h>

#include <string>

#include "sweep.h"

namespace {

using namespace cuconform_intrinsics;

#define INTEGER_RULE(fixture, name, function, statement) \
  RULE_F(fixture, name, "CUDA Math API 13.0 Integer Intrinsics", statement) { EXPECT_TRUE(MatchesModel(function)); }

class BitCount : public IntrinsicTest {};
INTEGER_RULE(BitCount, Popc, kPopc, "__popc(x) returns the number of bits of the 32-bit x that are 1 (0 to 32)")
INTEGER_RULE(BitCount, Popcll, kPopcll, "__popcll(x) returns the number of bits of the 64-bit x that are 1 (0 to 64)")

class LeadingZeros : public IntrinsicTest {};
INTEGER_RULE(LeadingZeros, Clz, kClz,
             "__clz(x) returns the number of consecutive zero bits from bit 31 of x down (0 to 32)")
INTEGER_RULE(LeadingZeros, Clzll, kClzll,
             "__clzll(x) returns the number of consecutive zero bits from bit 63 of x down (0 to 64)")

class FirstSet : public IntrinsicTest {};
INTEGER_RULE(FirstSet, Ffs, kFfs,
             "__ffs(x) returns the 1-based position of the least significant 1 bit of the 32-bit x, 0 for x == 0")
INTEGER_RULE(FirstSet, Ffsll, kFfsll,
             "__ffsll(x) returns the 1-based position of the least significant 1 bit of the 64-bit x, 0 for x == 0")

class BitReverse : public IntrinsicTest {};
INTEGER_RULE(BitReverse, Brev, kBrev, "__brev(x): bit N of the result is bit 31-N of x")
INTEGER_RULE(BitReverse, Brevll, kBrevll, "__brevll(x): bit N of the result is bit 63-N of x")

class BytePerm : public IntrinsicTest {};
RULE_F(BytePerm, SelectsTheBytesNamedByTheSelectors, "CUDA Math API 13.0 Integer Intrinsics",
       "__byte_perm(x, y, s): result byte k is byte ((s >> 4k) & 7) of ((uint64_t)y << 32) | x; s[31:16] is "
       "ignored (every selector whose nibbles have bit 3 clear)") {
  EXPECT_TRUE(MatchesModel(kBytePerm, Domain::BytePerm));
}
RULE_F(BytePerm, IgnoresBit3OfEachSelector, "CUDA Math API 13.0 Integer Intrinsics",
       "__byte_perm(x, y, s) reads only bits 2:0 of each selector nibble ((s >> 4k) & 0x7), so bit 3 changes "
       "nothing (every one of the 2^16 selectors)") {
  EXPECT_TRUE(MatchesModel(kBytePerm, Domain::BytePermAll));
}

class FunnelShift : public IntrinsicTest {};
INTEGER_RULE(FunnelShift, LeftWrapsTheShift, kFunnelshiftL,
             "__funnelshift_l(lo, hi, shift) returns the upper 32 bits of hi:lo shifted left by shift & 31")
INTEGER_RULE(FunnelShift, LeftClampsTheShift, kFunnelshiftLc,
             "__funnelshift_lc(lo, hi, shift) returns the upper 32 bits of hi:lo shifted left by min(shift, 32)")
INTEGER_RULE(FunnelShift, RightWrapsTheShift, kFunnelshiftR,
             "__funnelshift_r(lo, hi, shift) returns the lower 32 bits of hi:lo shifted right by shift & 31")
INTEGER_RULE(FunnelShift, RightClampsTheShift, kFunnelshiftRc,
             "__funnelshift_rc(lo, hi, shift) returns the lower 32 bits of hi:lo shifted right by min(shift, 32)")

class Multiply24 : public IntrinsicTest {};
INTEGER_RULE(Multiply24, Mul24, kMul24,
             "__mul24(x, y) returns the low 32 bits of the product of the low 24 bits of x and y (as signed "
             "24-bit integers); the high 8 bits are ignored")
INTEGER_RULE(Multiply24, Umul24, kUmul24,
             "__umul24(x, y) returns the low 32 bits of the product of the low 24 bits of x and y; the high 8 bits "
             "are ignored")

class MultiplyHigh : public IntrinsicTest {};
INTEGER_RULE(MultiplyHigh, Mulhi, kMulhi, "__mulhi(x, y) returns the high 32 bits of the signed 64-bit product x * y")
INTEGER_RULE(MultiplyHigh, Umulhi, kUmulhi,
             "__umulhi(x, y) returns the high 32 bits of the unsigned 64-bit product x * y")
INTEGER_RULE(MultiplyHigh, Mul64hi, kMul64hi,
             "__mul64hi(x, y) returns the high 64 bits of the signed 128-bit product x * y")
INTEGER_RULE(MultiplyHigh, Umul64hi, kUmul64hi,
             "__umul64hi(x, y) returns the high 64 bits of the unsigned 128-bit product x * y")

class SumOfAbsoluteDifference : public IntrinsicTest {};
INTEGER_RULE(SumOfAbsoluteDifference, Sad, kSad,
             "__sad(x, y, z) returns |x - y| + z as a 32-bit sum, x and y signed 32-bit, z unsigned")
INTEGER_RULE(SumOfAbsoluteDifference, Usad, kUsad,
             "__usad(x, y, z) returns |x - y| + z as a 32-bit sum, x, y and z unsigned 32-bit")

class Average : public IntrinsicTest {};
INTEGER_RULE(Average, Hadd, kHadd, "__hadd(x, y) returns (x + y) >> 1 of signed x, y without overflow in the sum")
INTEGER_RULE(Average, Rhadd, kRhadd,
             "__rhadd(x, y) returns (x + y + 1) >> 1 of signed x, y without overflow in the sum")
INTEGER_RULE(Average, Uhadd, kUhadd, "__uhadd(x, y) returns (x + y) >> 1 of unsigned x, y without overflow in the sum")
INTEGER_RULE(Average, Urhadd, kUrhadd,
             "__urhadd(x, y) returns (x + y + 1) >> 1 of unsigned x, y without overflow in the sum")

// The integer and the vector-typed overload of each dot product: one rule, two tests.
#define DOT_PRODUCT_RULE(name, statement, integer_form, vector_form)                          \
  class name : public IntrinsicTestWithParam {};                                              \
  RULE_P(name, MatchesTheDocumentedSum, "CUDA Math API 13.0 Integer Intrinsics", statement) { \
    EXPECT_TRUE(MatchesModel(GetParam()));                                                    \
  }                                                                                           \
  INSTANTIATE_TEST_SUITE_P(Forms, name, ::testing::Values(integer_form, vector_form), FormName)

std::string FormName(const ::testing::TestParamInfo<Function>& info) { return info.index == 0 ? "Integer" : "Vector"; }

DOT_PRODUCT_RULE(Dp4aSigned,
                 "__dp4a(int a, int b, int c) and __dp4a(char4, char4, int) return c plus the four products of the "
                 "signed bytes of a and b, byte k with byte k",
                 kDp4aSigned, kDp4aSignedVector);
DOT_PRODUCT_RULE(Dp4aUnsigned,
                 "__dp4a(unsigned, unsigned, unsigned) and __dp4a(uchar4, uchar4, unsigned) return c plus the four "
                 "products of the unsigned bytes of a and b, byte k with byte k",
                 kDp4aUnsigned, kDp4aUnsignedVector);
DOT_PRODUCT_RULE(Dp2aLoSigned,
                 "__dp2a_lo(int a, int b, int c) and __dp2a_lo(short2, char4, int) return c + a.h0 * b.b0 + "
                 "a.h1 * b.b1 (signed 16-bit halves of a, signed bytes 0 and 1 of b)",
                 kDp2aLoSigned, kDp2aLoSignedVector);
DOT_PRODUCT_RULE(Dp2aLoUnsigned,
                 "__dp2a_lo(unsigned, unsigned, unsigned) and __dp2a_lo(ushort2, uchar4, unsigned) return c + "
                 "a.h0 * b.b0 + a.h1 * b.b1 (unsigned halves and bytes)",
                 kDp2aLoUnsigned, kDp2aLoUnsignedVector);
DOT_PRODUCT_RULE(Dp2aHiSigned,
                 "__dp2a_hi(int a, int b, int c) and __dp2a_hi(short2, char4, int) return c + a.h0 * b.b2 + "
                 "a.h1 * b.b3 (signed 16-bit halves of a, signed bytes 2 and 3 of b)",
                 kDp2aHiSigned, kDp2aHiSignedVector);
DOT_PRODUCT_RULE(Dp2aHiUnsigned,
                 "__dp2a_hi(unsigned, unsigned, unsigned) and __dp2a_hi(ushort2, uchar4, unsigned) return c + "
                 "a.h0 * b.b2 + a.h1 * b.b3 (unsigned halves and bytes)",
                 kDp2aHiUnsigned, kDp2aHiUnsignedVector);

}  // namespace
