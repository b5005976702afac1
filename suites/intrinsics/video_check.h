// PG12.9 10.41: one SIMD video instruction, run on the GPU through asm() over structured and pseudo-random operands,
// each result checked against the model (video_model.h) of the instruction its text names (video_syntax.h).
#pragma once

#include <cuconform/cuconform.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "functions.h"

namespace cuconform_intrinsics::video {

struct Triple {
  std::uint32_t a, b, c;
};

// Runs the instruction on `count` operand triples; with `corrupt`, flips bit 0 of d where the low 10 bits of a are
// all 1 (CUCONFORM_INTRINSICS_SIMULATE, README.md).
using RunOnDevice = void (*)(const Triple* operands, std::uint32_t* results, unsigned count, bool corrupt);

// One instruction under test: the test's name and the instruction's text, from which both the asm() statement and
// the model are made.
struct Variant {
  const char* name;  // Vadd4S32SatMaskB20
  const char* opcode;
  const char* mask;  // "" for the default, else ".h0", ".b20", ...
  const char* asel;
  const char* bsel;
  RunOnDevice run;
};

void PrintTo(const Variant& variant, std::ostream* out);
std::string VariantName(const ::testing::TestParamInfo<Variant>& info);

// Operands that give each lane every pair of its edge values (two lanes) or every pair of byte values (four lanes),
// with c cycling through edge words, then `random_count` seeded pseudo-random triples (seed kSeed).
std::vector<Triple> video_inputs(int lanes, std::size_t random_count);

::testing::AssertionResult MatchesVideoModel(const Variant& variant);

// CUCONFORM_INTRINSICS_SIMULATE=<variant name>: the name, or "" when it names no video variant.
std::string simulated_variant();
// True when the rules run on the host: a variant is simulated and there is no GPU.
bool video_host_simulation();
// names_a_video_variant(name), declared in functions.h, is defined in video_simd.cu, where every list is.

// A GPU rule that runs on the host under CUCONFORM_INTRINSICS_SIMULATE when there is no GPU.
class VideoTest : public cuconform::GpuTestWithParam<Variant> {
 protected:
  void SetUp() override {
    if (!video_host_simulation()) cuconform::GpuTestWithParam<Variant>::SetUp();
  }
};

}  // namespace cuconform_intrinsics::video
