#include "video_check.h"

#include <cuconform/buffer.h>
#include <cuconform/compare.h>
#include <cuconform/metric.h>
#include <cuconform/profile.h>

#include <cuda_runtime.h>

#include <cstdlib>
#include <iomanip>
#include <random>
#include <sstream>
#include <stdexcept>

#include "model.h"
#include "video_model.h"
#include "video_syntax.h"

namespace cuconform_intrinsics::video {

namespace {

// Halfword values at the edges of both readings (0, 1, the signed extremes and their neighbours, all ones) and two
// plain ones.
constexpr std::uint32_t kHalfwordEdges[16] = {0x0000, 0x0001, 0x0002, 0x007f, 0x0080, 0x00ff, 0x0100, 0x1234,
                                              0x3fff, 0x7ffe, 0x7fff, 0x8000, 0x8001, 0xc000, 0xfffe, 0xffff};
// Words c takes in the structured part: every lane 0, every lane all ones, sign bits, largest signed, distinct lanes.
constexpr std::uint32_t kWordsForC[5] = {0x00000000u, 0xffffffffu, 0x80808080u, 0x7fff7fffu, 0x12345678u};

std::string hex(std::uint32_t value) {
  std::ostringstream out;
  out << "0x" << std::hex << std::setw(8) << std::setfill('0') << value;
  return out.str();
}

std::string simulation_text() {
  const char* text = std::getenv("CUCONFORM_INTRINSICS_SIMULATE");
  return text ? text : "";
}

}  // namespace

void PrintTo(const Variant& variant, std::ostream* out) {
  *out << instruction_text(variant.opcode, variant.mask, variant.asel, variant.bsel);
}

std::string VariantName(const ::testing::TestParamInfo<Variant>& info) { return info.param.name; }

std::vector<Triple> video_inputs(int lanes, std::size_t random_count) {
  std::vector<Triple> inputs;
  if (lanes == 2) {
    // Lane 0 takes the pair (i, j) of edge values, lane 1 the pair (i + 3, j + 11): both see all 256 pairs.
    for (std::uint32_t c : kWordsForC) {
      for (unsigned p = 0; p < 256; ++p) {
        const unsigned i = p % 16, j = p / 16;
        const std::uint32_t a = kHalfwordEdges[i] | kHalfwordEdges[(i + 3) % 16] << 16;
        const std::uint32_t b = kHalfwordEdges[j] | kHalfwordEdges[(j + 11) % 16] << 16;
        inputs.push_back({a, b, c});
      }
    }
  } else {
    // Lane k takes the bytes (x + 67k, y + 29k) mod 256: each lane sees every pair of byte values once.
    for (std::uint32_t n = 0; n < 65536; ++n) {
      const std::uint32_t x = n & 0xff, y = n >> 8;
      std::uint32_t a = 0, b = 0;
      for (std::uint32_t k = 0; k < 4; ++k) {
        a |= ((x + 67 * k) & 0xff) << (8 * k);
        b |= ((y + 29 * k) & 0xff) << (8 * k);
      }
      inputs.push_back({a, b, kWordsForC[n % 5]});
    }
  }
  std::mt19937 random(kSeed);
  for (std::size_t k = 0; k < random_count; ++k) {
    const std::uint32_t a = random(), b = random(), c = random();
    inputs.push_back({a, b, c});
  }
  return inputs;
}

std::string simulated_variant() {
  const std::string name = simulation_text();
  return names_a_video_variant(name) ? name : "";
}

bool video_host_simulation() {
  static const bool on = [] {
    if (simulated_variant().empty()) return false;
    int devices = 0;
    return cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0;
  }();
  return on;
}

::testing::AssertionResult MatchesVideoModel(const Variant& variant) {
  const std::string text = instruction_text(variant.opcode, variant.mask, variant.asel, variant.bsel);
  Instruction instruction{};
  try {
    instruction = parse_instruction(variant.opcode, variant.mask, variant.asel, variant.bsel);
  } catch (const std::invalid_argument& error) {
    return ::testing::AssertionFailure() << "the rule's own instruction text is wrong: " << error.what();
  }
  const std::size_t random_count = cuconform::full_profile() ? (std::size_t{1} << 18) : (std::size_t{1} << 14);
  const std::vector<Triple> inputs = video_inputs(instruction.lanes, random_count);
  const bool corrupt = simulated_variant() == variant.name;

  std::vector<std::uint32_t> results(inputs.size());
  if (video_host_simulation()) {
    // No GPU: the model stands in for it, corrupted as the device wrapper would be.
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const Triple& t = inputs[i];
      results[i] = evaluate(instruction, t.a, t.b, t.c) ^ (corrupt && (t.a & 0x3ffu) == 0x3ffu ? 1u : 0u);
    }
  } else {
    cuconform::DeviceBuffer<Triple> operands(inputs);
    cuconform::DeviceBuffer<std::uint32_t> device_results(inputs.size());
    variant.run(operands.get(), device_results.get(), static_cast<unsigned>(inputs.size()), corrupt);
    results = device_results.to_host();
  }

  cuconform::record_metric("inputs", static_cast<long long>(inputs.size()));
  cuconform::record_metric("seed", static_cast<long long>(kSeed));
  const std::size_t structured = inputs.size() - random_count;
  std::size_t differing = 0;
  std::ostringstream shown;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Triple& t = inputs[i];
    const std::uint32_t expected = evaluate(instruction, t.a, t.b, t.c);
    if (results[i] == expected) continue;
    if (differing++ < cuconform::kMismatchesShown) {
      shown << "\n  a = " << hex(t.a) << ", b = " << hex(t.b) << ", c = " << hex(t.c)
            << (i < structured ? " (structured)" : " (random)") << ": d = " << hex(results[i]) << ", expected "
            << hex(expected);
    }
  }
  if (differing == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << text << ": " << differing << " of " << inputs.size()
                                       << " results differ from the model (random operands from seed " << hex(kSeed)
                                       << ")" << shown.str();
}

}  // namespace cuconform_intrinsics::video
