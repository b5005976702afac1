// PG12.9 20.3 (Floating-Point Standard): "Regardless of the setting of the compiler flag -ftz, atomic single-precision
// floating-point adds on global memory always operate in flush-to-zero mode, i.e., behave equivalent to
// FADD.F32.FTZ.RN, [and] atomic single-precision floating-point adds on shared memory always operate with denormal
// support, i.e., behave equivalent to FADD.F32.RN."
//
// Each rule runs a table of additions whose result depends on that mode (subnormal operands, subnormal sums, signs,
// round-to-nearest-even ties) against a host model of FADD.F32.RN, with or without flushing. The suite is compiled
// with the default -ftz=false. Besides the plain, _block and _system forms, the add is also reached through a
// generic pointer in a function the compiler may not inline, so that the memory, not the instruction the compiler
// picked for a known address space, decides.
#include <cfloat>
#include <cmath>
#include <string>

#include "legacy_ops.h"

namespace atomics {
namespace {

float flush(float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; }

// FADD.F32.FTZ.RN: subnormal inputs and results become zeros of the same sign.
float add_flushing_subnormals(float a, float b) { return flush(flush(a) + flush(b)); }
// FADD.F32.RN (the host adds in round-to-nearest-even with subnormals).
float add_keeping_subnormals(float a, float b) { return a + b; }

__device__ __noinline__ float atomic_add_through_generic_pointer(float* address, float val) {
  return atomicAdd(address, val);
}

// atomicAdd on float, with the host model chosen by FlushSubnormals, optionally through a generic pointer.
template <bool FlushSubnormals, bool ThroughGenericPointer>
struct FloatAdd {
  template <class T>
  using arg_type = float;
  template <Scope S, class T>
  static constexpr bool has = ThroughGenericPointer ? S == Scope::Device : legacy_has<S, float>;
  template <class T>
  static constexpr bool on_shared = true;
  template <Scope S, class T>
  __device__ static float apply(float* address, float val) {
    if constexpr (ThroughGenericPointer) {
      return atomic_add_through_generic_pointer(address, val);
    } else {
      return LegacyAdd::apply<S, float>(address, val);
    }
  }
  static float model(float old, float val) {
    return FlushSubnormals ? add_flushing_subnormals(old, val) : add_keeping_subnormals(old, val);
  }
};

float bits(unsigned u) { return from_bits<float>(u); }

// (old, val) pairs whose sums differ between flushing and keeping subnormals, or that pin down the rounding.
std::vector<std::pair<float, float>> mode_cases() {
  return {
      {bits(0x00400000u), 0.0f},               // subnormal old value: kept, or flushed to +0
      {0.0f, bits(0x00400000u)},               // subnormal val
      {bits(0x80000001u), 0.0f},               // negative subnormal old value: kept, or -0 + 0 = +0
      {bits(0x00c00000u), -FLT_MIN},           // two normals whose sum 2^-127 is subnormal: kept, or +0
      {-bits(0x00c00000u), FLT_MIN},           // ... and its negative: kept, or -0
      {FLT_MIN, bits(0x00000001u)},            // normal + smallest subnormal: 0x00800001, or FLT_MIN
      {bits(0x007fffffu), bits(0x00000001u)},  // two subnormals summing to FLT_MIN, or +0
      {1.0f, 0x1p-24f},                        // a tie: rounds to the even 1.0
      {1.0f + 0x1p-23f, 0x1p-24f},             // a tie: rounds to the even 1 + 2^-22
      {1.0f, 0x1.8p-24f},                      // above the tie: rounds up to 1 + 2^-23
      {-1.0f, -0x1p-24f},                      // a negative tie: -1.0
      {1.0f, -1.0f},                           // +0
      {FLT_MAX, FLT_MAX},                      // overflows to +inf
  };
}

struct ModeVariant {
  Scope scope;
  bool through_generic_pointer;
};

std::string mode_variant_name(const ::testing::TestParamInfo<ModeVariant>& info) {
  return name_of(info.param.scope) + (info.param.through_generic_pointer ? "ThroughGenericPointer" : "");
}

void PrintTo(const ModeVariant& m, std::ostream* out) { *out << mode_variant_name({m, 0}); }

template <bool FlushSubnormals>
void expect_mode(Space space, const ModeVariant& m) {
  const Variant v{space, m.scope};
  if (m.through_generic_pointer) {
    expect_table<FloatAdd<FlushSubnormals, true>, float>(v, mode_cases());
  } else {
    expect_table<FloatAdd<FlushSubnormals, false>, float>(v, mode_cases());
  }
}

class AtomicAddFloatSubnormals : public RmwTest<ModeVariant> {};

RULE_P(AtomicAddFloatSubnormals, FlushedToZeroOnGlobalMemory, "PG12.9 20.3",
       "atomic single-precision floating-point adds on global memory always operate in flush-to-zero mode, "
       "equivalent to FADD.F32.FTZ.RN") {
  expect_mode<true>(Space::Global, GetParam());
}

RULE_P(AtomicAddFloatSubnormals, KeptOnSharedMemory, "PG12.9 20.3",
       "atomic single-precision floating-point adds on shared memory always operate with denormal support, "
       "equivalent to FADD.F32.RN") {
  expect_mode<false>(Space::Shared, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Variants, AtomicAddFloatSubnormals,
                         ::testing::Values(ModeVariant{Scope::Device, false}, ModeVariant{Scope::Block, false},
                                           ModeVariant{Scope::System, false}, ModeVariant{Scope::Device, true}),
                         mode_variant_name);

}  // namespace
}  // namespace atomics
