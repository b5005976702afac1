// The host model of the DPX functions (5.4.8.6, with the predicate outputs of the CUDA Math API), written from the
// documented semantics in 64-bit integer arithmetic, lane by lane.
#include "dpx_functions.h"

#include <algorithm>

namespace cuconform_dpx {

namespace {

const Description kDescriptions[kFunctionCount] = {
    {"__vimax3_s32", Kind::kMax3, Lanes::kS32},
    {"__vimax3_s16x2", Kind::kMax3, Lanes::kS16x2},
    {"__vimax3_u32", Kind::kMax3, Lanes::kU32},
    {"__vimax3_u16x2", Kind::kMax3, Lanes::kU16x2},
    {"__vimin3_s32", Kind::kMin3, Lanes::kS32},
    {"__vimin3_s16x2", Kind::kMin3, Lanes::kS16x2},
    {"__vimin3_u32", Kind::kMin3, Lanes::kU32},
    {"__vimin3_u16x2", Kind::kMin3, Lanes::kU16x2},
    {"__vimax_s32_relu", Kind::kMaxRelu, Lanes::kS32},
    {"__vimax_s16x2_relu", Kind::kMaxRelu, Lanes::kS16x2},
    {"__vimin_s32_relu", Kind::kMinRelu, Lanes::kS32},
    {"__vimin_s16x2_relu", Kind::kMinRelu, Lanes::kS16x2},
    {"__vimax3_s32_relu", Kind::kMax3Relu, Lanes::kS32},
    {"__vimax3_s16x2_relu", Kind::kMax3Relu, Lanes::kS16x2},
    {"__vimin3_s32_relu", Kind::kMin3Relu, Lanes::kS32},
    {"__vimin3_s16x2_relu", Kind::kMin3Relu, Lanes::kS16x2},
    {"__vibmax_s32", Kind::kBMax, Lanes::kS32},
    {"__vibmax_u32", Kind::kBMax, Lanes::kU32},
    {"__vibmax_s16x2", Kind::kBMax, Lanes::kS16x2},
    {"__vibmax_u16x2", Kind::kBMax, Lanes::kU16x2},
    {"__vibmin_s32", Kind::kBMin, Lanes::kS32},
    {"__vibmin_u32", Kind::kBMin, Lanes::kU32},
    {"__vibmin_s16x2", Kind::kBMin, Lanes::kS16x2},
    {"__vibmin_u16x2", Kind::kBMin, Lanes::kU16x2},
    {"__viaddmax_s32", Kind::kAddMax, Lanes::kS32},
    {"__viaddmax_s16x2", Kind::kAddMax, Lanes::kS16x2},
    {"__viaddmax_u32", Kind::kAddMax, Lanes::kU32},
    {"__viaddmax_u16x2", Kind::kAddMax, Lanes::kU16x2},
    {"__viaddmin_s32", Kind::kAddMin, Lanes::kS32},
    {"__viaddmin_s16x2", Kind::kAddMin, Lanes::kS16x2},
    {"__viaddmin_u32", Kind::kAddMin, Lanes::kU32},
    {"__viaddmin_u16x2", Kind::kAddMin, Lanes::kU16x2},
    {"__viaddmax_s32_relu", Kind::kAddMaxRelu, Lanes::kS32},
    {"__viaddmax_s16x2_relu", Kind::kAddMaxRelu, Lanes::kS16x2},
    {"__viaddmin_s32_relu", Kind::kAddMinRelu, Lanes::kS32},
    {"__viaddmin_s16x2_relu", Kind::kAddMinRelu, Lanes::kS16x2},
};

struct LaneType {
  int bits;
  bool is_signed;

  int64_t min() const { return is_signed ? -(int64_t{1} << (bits - 1)) : 0; }
  int64_t max() const { return is_signed ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1; }
  uint64_t field_mask() const { return (uint64_t{1} << bits) - 1; }

  // The lane's bits read as a number of this type.
  int64_t value_of(uint64_t field) const {
    field &= field_mask();
    if (is_signed && (field >> (bits - 1))) return static_cast<int64_t>(field) - (int64_t{1} << bits);
    return static_cast<int64_t>(field);
  }
  // A number of any size reduced to the lane's bits (two's complement wrap-around).
  uint64_t field_of(int64_t value) const { return static_cast<uint64_t>(value) & field_mask(); }
  int64_t wrap(int64_t value) const { return value_of(field_of(value)); }
};

struct LaneResult {
  int64_t value;
  int64_t wrapped;
  bool defined;
  bool pred;
};

LaneResult lane_model(Kind kind, LaneType type, bool add_wraps, int64_t a, int64_t b, int64_t c) {
  using std::max;
  using std::min;
  const int64_t sum = a + b;
  const int64_t wrapped_sum = type.wrap(sum);
  // Unsigned 32-bit a + b is C++ unsigned arithmetic, modulo 2^32; for the other lane types the documentation
  // does not say what an overflowing a + b gives.
  const bool sum_defined = add_wraps || (sum >= type.min() && sum <= type.max());
  const int64_t exact_sum = add_wraps ? wrapped_sum : sum;
  auto both = [&](int64_t (*f)(int64_t, int64_t)) {
    return LaneResult{f(exact_sum, c), f(wrapped_sum, c), sum_defined, false};
  };
  switch (kind) {
    case Kind::kMax3: return {max({a, b, c}), max({a, b, c}), true, false};
    case Kind::kMin3: return {min({a, b, c}), min({a, b, c}), true, false};
    case Kind::kMaxRelu: return {max({a, b, int64_t{0}}), max({a, b, int64_t{0}}), true, false};
    case Kind::kMinRelu: return {max(min(a, b), int64_t{0}), max(min(a, b), int64_t{0}), true, false};
    case Kind::kMax3Relu: return {max({a, b, c, int64_t{0}}), max({a, b, c, int64_t{0}}), true, false};
    case Kind::kMin3Relu: return {max(min({a, b, c}), int64_t{0}), max(min({a, b, c}), int64_t{0}), true, false};
    case Kind::kBMax: return {max(a, b), max(a, b), true, a >= b};
    case Kind::kBMin: return {min(a, b), min(a, b), true, a <= b};
    case Kind::kAddMax: return both([](int64_t s, int64_t x) { return max(s, x); });
    case Kind::kAddMin: return both([](int64_t s, int64_t x) { return min(s, x); });
    case Kind::kAddMaxRelu: return both([](int64_t s, int64_t x) { return max({s, x, int64_t{0}}); });
    case Kind::kAddMinRelu: return both([](int64_t s, int64_t x) { return max(min(s, x), int64_t{0}); });
  }
  return {0, 0, false, false};
}

bool has_predicates(Kind kind) { return kind == Kind::kBMax || kind == Kind::kBMin; }

}  // namespace

const Description& describe(Function f) { return kDescriptions[f]; }

Expected model(Function f, Operands o) {
  const Description& d = describe(f);
  const bool sixteen = d.lanes == Lanes::kS16x2 || d.lanes == Lanes::kU16x2;
  const LaneType type{sixteen ? 16 : 32, d.lanes == Lanes::kS32 || d.lanes == Lanes::kS16x2};
  const bool add_wraps = d.lanes == Lanes::kU32;
  const int lanes = sixteen ? 2 : 1;

  Expected e{0, 0, 0, 0, 0};
  for (int lane = 0; lane < lanes; ++lane) {
    const int shift = lane * 16;
    const LaneResult r = lane_model(d.kind, type, add_wraps, type.value_of(o.a >> shift), type.value_of(o.b >> shift),
                                    type.value_of(o.c >> shift));
    const uint32_t field_mask = static_cast<uint32_t>(type.field_mask()) << shift;
    e.value |= static_cast<uint32_t>(type.field_of(r.value) << shift);
    e.wrapped |= static_cast<uint32_t>(type.field_of(r.wrapped) << shift);
    if (r.defined) e.value_mask |= field_mask;
    if (has_predicates(d.kind)) {
      e.predicates |= static_cast<uint8_t>(r.pred << lane);
      e.predicate_mask |= static_cast<uint8_t>(1 << lane);
    }
  }
  return e;
}

}  // namespace cuconform_dpx
