// Runs one DPX function over the whole input sweep in one launch and compares every result with the host model.
#pragma once

#include <gtest/gtest.h>

#include "dpx_functions.h"

namespace cuconform_dpx {

// The quick profile sweeps the 64^3 boundary triples and 2^16 random ones; the full profile 2^24 random ones.
::testing::AssertionResult MatchesModel(Function f);

}  // namespace cuconform_dpx
