// PG12.9 10.41 SIMD Video Instructions: the guide's inline-PTX example, vabsdiff4 with the .add accumulate.
#include <cuconform/cuconform.h>

#include "sweep.h"

namespace {

using namespace cuconform_intrinsics;

class VideoInstruction : public IntrinsicTest {};

RULE_F(VideoInstruction, Vabsdiff4AddSumsByteAbsoluteDifferences, "PG12.9 10.41",
       "asm(\"vabsdiff4.u32.u32.u32.add\" ...) returns C plus the sum of |A_k - B_k| over the four unsigned bytes "
       "of A and B") {
  EXPECT_TRUE(MatchesModel(kPtxVabsdiff4Add));
}

}  // namespace
