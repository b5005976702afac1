// Checks one intrinsic against its host model (model.h) over two sets of inputs:
//
//   1. the sweep: input number i of the function's Domain for i in [0, 2^32) (the full profile, and the quick
//      profile for __popc, __clz, __ffs, __brev: exhaustive), or 2^24 of them (the quick profile: i = j * an odd
//      constant, a scattered deterministic sample). The GPU writes only candidates, inputs where the intrinsic
//      differs from the device copy of the model, into a bounded buffer, and the raw results of an audit sample
//      (two inputs of every block of 2^k); the host re-checks all of them with the host model.
//   2. the list: edge cases (every pair or triple of boundary values) and seeded pseudo-random inputs; the GPU
//      writes every raw result, the host compares each.
//
// With CUCONFORM_INTRINSICS_SIMULATE=<intrinsic> (e.g. __popc) the named intrinsic's device wrapper returns a
// wrong value for 1 input in 1024; without a GPU the rules then run on the host, the model standing in for every
// intrinsic and the named one corrupted the same way, so each check is seen to fail for it alone.
// CUCONFORM_INTRINSICS_SIMULATE=<intrinsic>:blind-filter also blinds the sweep's filter, so that only the audit
// sample and the list can catch the wrong values (they must).
#pragma once

#include <gtest/gtest.h>

#include "functions.h"

namespace cuconform_intrinsics {

::testing::AssertionResult MatchesModel(Function f, Domain d);
inline ::testing::AssertionResult MatchesModel(Function f) { return MatchesModel(f, domain_of(f)); }

// True when the rules run on the host (CUCONFORM_INTRINSICS_SIMULATE set and no GPU asked for).
bool host_simulation();

}  // namespace cuconform_intrinsics

#include <cuconform/cuconform.h>

#include <ostream>
#include <string>

namespace cuconform_intrinsics {

// A GPU rule that also runs on the host under CUCONFORM_INTRINSICS_SIMULATE when there is no GPU.
class IntrinsicTest : public cuconform::GpuTest {
 protected:
  void SetUp() override {
    if (!host_simulation()) cuconform::GpuTest::SetUp();
  }
};

class IntrinsicTestWithParam : public cuconform::GpuTestWithParam<Function> {
 protected:
  void SetUp() override {
    if (!host_simulation()) cuconform::GpuTestWithParam<Function>::SetUp();
  }
};

void PrintTo(Function f, std::ostream* os);

// Test names for parameterized rules: the intrinsic's name without its leading underscores.
std::string ParamName(const ::testing::TestParamInfo<Function>& info);

}  // namespace cuconform_intrinsics
