// PG12.9 10.41 SIMD Video Instructions: vadd2/4, vsub2/4, vavrg2/4 (the guide's "vavg"), vabsdiff2/4, vmin2/4,
// vmax2/4 and vset2/4 "included in CUDA programs by way of the assembler, asm(), statement", with and without their
// secondary operation (merge under a mask, .add), .sat, the operand selectors and mixed operand types. Each test is
// one instruction, named once by its text: the asm() statement is made from the text, and the model of what the
// instruction computes (video_model.h, the PTX ISA's semantics the guide points to) is read from the same text.
// Every result of every operand triple is checked (video_check.cpp).
#include <cuconform/cuconform.h>

#include <cstdint>
#include <string>

#include "video_check.h"

namespace cuconform_intrinsics::video {

namespace {

using u32 = std::uint32_t;

template <class Instruction>
__global__ void video_kernel(const Triple* operands, u32* results, unsigned count, bool corrupt) {
  const unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
    const Triple t = operands[i];
    u32 d = Instruction::run(t.a, t.b, t.c);
    if (corrupt && (t.a & 0x3ffu) == 0x3ffu) d ^= 1u;
    results[i] = d;
  }
}

template <class Instruction>
void run_on_device(const Triple* operands, u32* results, unsigned count, bool corrupt) {
  cuconform::launch(video_kernel<Instruction>, dim3(256), dim3(256), operands, results, count, corrupt);
}

// One instruction: `opcode d<mask>, a<asel>, b<bsel>, c;` in an asm() statement, as the guide's example writes it.
#define CUCONFORM_VIDEO_DEFINE(Name, opcode, mask, asel, bsel)                                   \
  struct Name {                                                                                  \
    __device__ static u32 run(u32 a, u32 b, u32 c) {                                             \
      u32 d;                                                                                     \
      asm(opcode " %0" mask ", %1" asel ", %2" bsel ", %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); \
      return d;                                                                                  \
    }                                                                                            \
  };
#define CUCONFORM_VIDEO_VARIANT(Name, opcode, mask, asel, bsel) \
  Variant{#Name, opcode, mask, asel, bsel, &run_on_device<Name>},
#define CUCONFORM_VIDEO_NAME(Name, opcode, mask, asel, bsel) #Name,

// The 2- and 4-lane forms of an arithmetic operation, all operands unsigned or all signed; Sfx/sfx: a suffix.
#define VIDEO_ARITHMETIC_FORMS(X, Op, op, Sfx, sfx)    \
  X(Op##2U32##Sfx, op "2.u32.u32.u32" sfx, "", "", "") \
  X(Op##2S32##Sfx, op "2.s32.s32.s32" sfx, "", "", "") \
  X(Op##4U32##Sfx, op "4.u32.u32.u32" sfx, "", "", "") \
  X(Op##4S32##Sfx, op "4.s32.s32.s32" sfx, "", "", "")
#define VIDEO_SET_FORMS(X, Cmp, cmp, Sfx, sfx)                \
  X(Vset2U32##Cmp##Sfx, "vset2.u32.u32." cmp sfx, "", "", "") \
  X(Vset2S32##Cmp##Sfx, "vset2.s32.s32." cmp sfx, "", "", "") \
  X(Vset4U32##Cmp##Sfx, "vset4.u32.u32." cmp sfx, "", "", "") \
  X(Vset4S32##Cmp##Sfx, "vset4.s32.s32." cmp sfx, "", "", "")
#define VIDEO_EVERY_OPERATION(X, Sfx, sfx)                  \
  VIDEO_ARITHMETIC_FORMS(X, Vadd, "vadd", Sfx, sfx)         \
  VIDEO_ARITHMETIC_FORMS(X, Vsub, "vsub", Sfx, sfx)         \
  VIDEO_ARITHMETIC_FORMS(X, Vavrg, "vavrg", Sfx, sfx)       \
  VIDEO_ARITHMETIC_FORMS(X, Vabsdiff, "vabsdiff", Sfx, sfx) \
  VIDEO_ARITHMETIC_FORMS(X, Vmin, "vmin", Sfx, sfx)         \
  VIDEO_ARITHMETIC_FORMS(X, Vmax, "vmax", Sfx, sfx)
#define VIDEO_EVERY_COMPARISON(X, Sfx, sfx) \
  VIDEO_SET_FORMS(X, Eq, "eq", Sfx, sfx)    \
  VIDEO_SET_FORMS(X, Ne, "ne", Sfx, sfx)    \
  VIDEO_SET_FORMS(X, Lt, "lt", Sfx, sfx)    \
  VIDEO_SET_FORMS(X, Le, "le", Sfx, sfx)    \
  VIDEO_SET_FORMS(X, Gt, "gt", Sfx, sfx)    \
  VIDEO_SET_FORMS(X, Ge, "ge", Sfx, sfx)

// The instructions of each rule.
#define VIDEO_ADD(X) VIDEO_ARITHMETIC_FORMS(X, Vadd, "vadd", , "")
#define VIDEO_SUB(X) VIDEO_ARITHMETIC_FORMS(X, Vsub, "vsub", , "")
#define VIDEO_AVRG(X) VIDEO_ARITHMETIC_FORMS(X, Vavrg, "vavrg", , "")
#define VIDEO_ABSDIFF(X) VIDEO_ARITHMETIC_FORMS(X, Vabsdiff, "vabsdiff", , "")
#define VIDEO_MIN(X) VIDEO_ARITHMETIC_FORMS(X, Vmin, "vmin", , "")
#define VIDEO_MAX(X) VIDEO_ARITHMETIC_FORMS(X, Vmax, "vmax", , "")
#define VIDEO_SET(X) VIDEO_EVERY_COMPARISON(X, , "")

// .sat with destination types equal to the sources', and with a destination type of the other signedness.
#define VIDEO_SATURATE(X)                                   \
  VIDEO_EVERY_OPERATION(X, Sat, ".sat")                     \
  X(Vsub2U32S32S32Sat, "vsub2.u32.s32.s32.sat", "", "", "") \
  X(Vadd2S32U32U32Sat, "vadd2.s32.u32.u32.sat", "", "", "") \
  X(Vsub4U32S32S32Sat, "vsub4.u32.s32.s32.sat", "", "", "") \
  X(Vadd4S32U32U32Sat, "vadd4.s32.u32.u32.sat", "", "", "")

#define VIDEO_ACCUMULATE(X) VIDEO_EVERY_OPERATION(X, Add, ".add") VIDEO_EVERY_COMPARISON(X, Add, ".add")

#define VIDEO_ACCUMULATE_MASKED(X)                                     \
  X(Vsub2S32AddH0, "vsub2.s32.s32.s32.add", ".h0", "", "")             \
  X(Vsub2S32AddH1, "vsub2.s32.s32.s32.add", ".h1", "", "")             \
  X(Vabsdiff4U32AddB0, "vabsdiff4.u32.u32.u32.add", ".b0", "", "")     \
  X(Vabsdiff4U32AddB21, "vabsdiff4.u32.u32.u32.add", ".b21", "", "")   \
  X(Vabsdiff4U32AddB320, "vabsdiff4.u32.u32.u32.add", ".b320", "", "") \
  X(Vset4S32GtAddB30, "vset4.s32.s32.gt.add", ".b30", "", "")

#define VIDEO_MERGE(X)                                     \
  X(Vsub2S32H0, "vsub2.s32.s32.s32", ".h0", "", "")        \
  X(Vsub2S32H1, "vsub2.s32.s32.s32", ".h1", "", "")        \
  X(Vsub2S32H10, "vsub2.s32.s32.s32", ".h10", "", "")      \
  X(Vmax2U32SatH1, "vmax2.u32.u32.u32.sat", ".h1", "", "") \
  X(Vset2S32LtH0, "vset2.s32.s32.lt", ".h0", "", "")       \
  X(Vadd4U32B0, "vadd4.u32.u32.u32", ".b0", "", "")        \
  X(Vadd4U32B1, "vadd4.u32.u32.u32", ".b1", "", "")        \
  X(Vadd4U32B10, "vadd4.u32.u32.u32", ".b10", "", "")      \
  X(Vadd4U32B2, "vadd4.u32.u32.u32", ".b2", "", "")        \
  X(Vadd4U32B20, "vadd4.u32.u32.u32", ".b20", "", "")      \
  X(Vadd4U32B21, "vadd4.u32.u32.u32", ".b21", "", "")      \
  X(Vadd4U32B210, "vadd4.u32.u32.u32", ".b210", "", "")    \
  X(Vadd4U32B3, "vadd4.u32.u32.u32", ".b3", "", "")        \
  X(Vadd4U32B30, "vadd4.u32.u32.u32", ".b30", "", "")      \
  X(Vadd4U32B31, "vadd4.u32.u32.u32", ".b31", "", "")      \
  X(Vadd4U32B310, "vadd4.u32.u32.u32", ".b310", "", "")    \
  X(Vadd4U32B32, "vadd4.u32.u32.u32", ".b32", "", "")      \
  X(Vadd4U32B320, "vadd4.u32.u32.u32", ".b320", "", "")    \
  X(Vadd4U32B321, "vadd4.u32.u32.u32", ".b321", "", "")    \
  X(Vadd4U32B3210, "vadd4.u32.u32.u32", ".b3210", "", "")  \
  X(Vset4U32NeB31, "vset4.u32.u32.ne", ".b31", "", "")

// vsub is not commutative, so a swapped or misplaced element shows. Every .hxy for a; a sample of .bxyzw.
#define VIDEO_SELECT(X)                                              \
  X(Vsub2S32AselH00, "vsub2.s32.s32.s32", "", ".h00", "")            \
  X(Vsub2S32AselH01, "vsub2.s32.s32.s32", "", ".h01", "")            \
  X(Vsub2S32AselH02, "vsub2.s32.s32.s32", "", ".h02", "")            \
  X(Vsub2S32AselH03, "vsub2.s32.s32.s32", "", ".h03", "")            \
  X(Vsub2S32AselH10, "vsub2.s32.s32.s32", "", ".h10", "")            \
  X(Vsub2S32AselH11, "vsub2.s32.s32.s32", "", ".h11", "")            \
  X(Vsub2S32AselH12, "vsub2.s32.s32.s32", "", ".h12", "")            \
  X(Vsub2S32AselH13, "vsub2.s32.s32.s32", "", ".h13", "")            \
  X(Vsub2S32AselH20, "vsub2.s32.s32.s32", "", ".h20", "")            \
  X(Vsub2S32AselH21, "vsub2.s32.s32.s32", "", ".h21", "")            \
  X(Vsub2S32AselH22, "vsub2.s32.s32.s32", "", ".h22", "")            \
  X(Vsub2S32AselH23, "vsub2.s32.s32.s32", "", ".h23", "")            \
  X(Vsub2S32AselH30, "vsub2.s32.s32.s32", "", ".h30", "")            \
  X(Vsub2S32AselH31, "vsub2.s32.s32.s32", "", ".h31", "")            \
  X(Vsub2S32AselH32, "vsub2.s32.s32.s32", "", ".h32", "")            \
  X(Vsub2S32AselH33, "vsub2.s32.s32.s32", "", ".h33", "")            \
  X(Vsub2U32BselH00, "vsub2.u32.u32.u32", "", "", ".h00")            \
  X(Vsub2U32BselH11, "vsub2.u32.u32.u32", "", "", ".h11")            \
  X(Vsub2U32BselH23, "vsub2.u32.u32.u32", "", "", ".h23")            \
  X(Vsub2U32BselH31, "vsub2.u32.u32.u32", "", "", ".h31")            \
  X(Vsub2U32BselH02, "vsub2.u32.u32.u32", "", "", ".h02")            \
  X(Vsub2U32AselH32BselH10, "vsub2.u32.u32.u32", "", ".h32", ".h10") \
  X(Vsub4S32AselB0000, "vsub4.s32.s32.s32", "", ".b0000", "")        \
  X(Vsub4S32AselB3333, "vsub4.s32.s32.s32", "", ".b3333", "")        \
  X(Vsub4S32AselB0123, "vsub4.s32.s32.s32", "", ".b0123", "")        \
  X(Vsub4S32AselB7654, "vsub4.s32.s32.s32", "", ".b7654", "")        \
  X(Vsub4S32AselB4321, "vsub4.s32.s32.s32", "", ".b4321", "")        \
  X(Vsub4S32AselB7531, "vsub4.s32.s32.s32", "", ".b7531", "")        \
  X(Vsub4S32AselB6420, "vsub4.s32.s32.s32", "", ".b6420", "")        \
  X(Vsub4S32AselB1032, "vsub4.s32.s32.s32", "", ".b1032", "")        \
  X(Vsub4U32BselB3210, "vsub4.u32.u32.u32", "", "", ".b3210")        \
  X(Vsub4U32BselB0000, "vsub4.u32.u32.u32", "", "", ".b0000")        \
  X(Vsub4U32BselB7777, "vsub4.u32.u32.u32", "", "", ".b7777")        \
  X(Vsub4U32BselB5476, "vsub4.u32.u32.u32", "", "", ".b5476")        \
  X(Vsub4U32BselB2301, "vsub4.u32.u32.u32", "", "", ".b2301")        \
  X(Vsub4U32AselB7654BselB3210, "vsub4.u32.u32.u32", "", ".b7654", ".b3210")

// Each source extended by its own type, even where its selector takes the other operand's elements.
#define VIDEO_OPERAND_TYPES(X)                                      \
  X(Vadd2S32U32S32, "vadd2.s32.u32.s32", "", "", "")                \
  X(Vsub2U32S32U32, "vsub2.u32.s32.u32", "", "", "")                \
  X(Vmin2S32S32U32, "vmin2.s32.s32.u32", "", "", "")                \
  X(Vmax2U32U32S32, "vmax2.u32.u32.s32", "", "", "")                \
  X(Vabsdiff2S32U32S32, "vabsdiff2.s32.u32.s32", "", "", "")        \
  X(Vavrg2U32S32S32, "vavrg2.u32.s32.s32", "", "", "")              \
  X(Vadd4U32S32U32, "vadd4.u32.s32.u32", "", "", "")                \
  X(Vsub4S32U32S32, "vsub4.s32.u32.s32", "", "", "")                \
  X(Vmin4U32U32S32, "vmin4.u32.u32.s32", "", "", "")                \
  X(Vmax4S32S32U32, "vmax4.s32.s32.u32", "", "", "")                \
  X(Vabsdiff4U32S32S32, "vabsdiff4.u32.s32.s32", "", "", "")        \
  X(Vavrg4S32U32U32, "vavrg4.s32.u32.u32", "", "", "")              \
  X(Vset2U32S32Lt, "vset2.u32.s32.lt", "", "", "")                  \
  X(Vset2S32U32Ge, "vset2.s32.u32.ge", "", "", "")                  \
  X(Vset4U32S32Gt, "vset4.u32.s32.gt", "", "", "")                  \
  X(Vset4S32U32Le, "vset4.s32.u32.le", "", "", "")                  \
  X(Vmax2S32U32S32AselH32, "vmax2.s32.u32.s32", "", ".h32", ".h10") \
  X(Vmin4S32S32U32AselB7654, "vmin4.s32.s32.u32", "", ".b7654", ".b3210")

// clang-format 22 lays this list out differently on each pass: it is kept as written.
// clang-format off
#define VIDEO_EVERY_LIST(X) \
  VIDEO_ADD(X) VIDEO_SUB(X) VIDEO_AVRG(X) VIDEO_ABSDIFF(X) VIDEO_MIN(X) VIDEO_MAX(X) VIDEO_SET(X) VIDEO_SATURATE(X) \
  VIDEO_ACCUMULATE(X) VIDEO_ACCUMULATE_MASKED(X) VIDEO_MERGE(X) VIDEO_SELECT(X) VIDEO_OPERAND_TYPES(X)
// clang-format on

VIDEO_EVERY_LIST(CUCONFORM_VIDEO_DEFINE)

// One rule: its fixture, the statement, and the list of instructions that are its tests.
#define VIDEO_RULE(fixture, name, statement, list)                                                 \
  class fixture : public VideoTest {};                                                             \
  RULE_P(fixture, name, "PG12.9 10.41", statement) { EXPECT_TRUE(MatchesVideoModel(GetParam())); } \
  const Variant fixture##Instructions[] = {list(CUCONFORM_VIDEO_VARIANT)};                         \
  INSTANTIATE_TEST_SUITE_P(Instructions, fixture, ::testing::ValuesIn(fixture##Instructions), VariantName)

VIDEO_RULE(VideoAdd, EachLaneIsTheSumOfItsSelectedLanes,
           "vadd2 / vadd4 through asm(): each halfword / byte lane of d is the low bits of Va + Vb, the lanes of a "
           "and b extended by .atype and .btype",
           VIDEO_ADD);

VIDEO_RULE(VideoSubtract, EachLaneIsTheDifferenceOfItsSelectedLanes,
           "vsub2 / vsub4 through asm(): each lane of d is the low bits of Va - Vb", VIDEO_SUB);

VIDEO_RULE(VideoAverage, EachLaneIsTheAverageWithHalvesRoundedAwayFromZero,
           "vavrg2 / vavrg4 (the guide's vavg2 / vavg4) through asm(): each lane of d is (Va + Vb + 1) >> 1 where "
           "Va + Vb >= 0, else (Va + Vb) >> 1",
           VIDEO_AVRG);

VIDEO_RULE(VideoAbsoluteDifference, EachLaneIsTheMagnitudeOfTheDifference,
           "vabsdiff2 / vabsdiff4 through asm(): each lane of d is the low bits of |Va - Vb|", VIDEO_ABSDIFF);

VIDEO_RULE(VideoMinimum, EachLaneIsTheSmallerOfItsSelectedLanes,
           "vmin2 / vmin4 through asm(): each lane of d is MIN(Va, Vb) of the extended lanes", VIDEO_MIN);

VIDEO_RULE(VideoMaximum, EachLaneIsTheLargerOfItsSelectedLanes,
           "vmax2 / vmax4 through asm(): each lane of d is MAX(Va, Vb) of the extended lanes", VIDEO_MAX);

VIDEO_RULE(VideoSet, EachLaneIsOneWhereTheComparisonHolds,
           "vset2 / vset4 through asm(): each lane of d is 1 where Va .cmp Vb holds (.eq .ne .lt .le .gt .ge), "
           "else 0",
           VIDEO_SET);

VIDEO_RULE(VideoSaturation, SatClampsEachLaneToTheDestinationRange,
           "with .sat, each lane's result is clamped to the range of a halfword / byte of .dtype (S16/S8 for .s32, "
           "U16/U8 for .u32) before it is merged into d",
           VIDEO_SATURATE);

VIDEO_RULE(VideoAccumulate, AddSumsTheLaneResultsIntoC,
           "with the secondary accumulate .add, d is c plus the (unclamped, extended) results of the lanes, modulo "
           "2^32",
           VIDEO_ACCUMULATE);

VIDEO_RULE(VideoAccumulateMask, OnlyTheLanesInTheMaskAreAdded,
           "with .add and a mask on d, only the results of the lanes the mask names are added to c",
           VIDEO_ACCUMULATE_MASKED);

VIDEO_RULE(VideoMerge, LanesOutsideTheMaskComeFromC,
           "with the secondary merge, the lanes of d that the mask (.h0 .h1 .h10, .b0 ... .b3210; default all) names "
           "hold the results, every other lane the same lane of c",
           VIDEO_MERGE);

VIDEO_RULE(VideoOperandSelect, EachLaneTakesTheSelectedElementOfAOrB,
           "asel / bsel (.hxy, .bxyzw) choose for each lane any of the four halfwords / eight bytes of a then b "
           "(defaults .h10 / .b3210 for a, .h32 / .b7654 for b)",
           VIDEO_SELECT);

VIDEO_RULE(VideoOperandTypes, EachSourceIsExtendedByItsOwnType,
           "Va is sign- or zero-extended by .atype and Vb by .btype, whichever operand their elements come from; "
           "vset's result is unsigned",
           VIDEO_OPERAND_TYPES);

}  // namespace

bool names_a_video_variant(const std::string& name) {
  static const char* const kNames[] = {VIDEO_EVERY_LIST(CUCONFORM_VIDEO_NAME)};
  for (const char* known : kNames) {
    if (name == known) return true;
  }
  return false;
}

}  // namespace cuconform_intrinsics::video
