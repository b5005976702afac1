// Host models of the intrinsics, written from their documented semantics (CUDA Math API 13.0 "Integer
// Intrinsics" and "SIMD Intrinsics", PG12.9 10.41) in plain C++: bit by bit, lane by lane, with wide arithmetic
// where the documentation speaks of exact values. Nothing here calls an intrinsic or a compiler builtin.
//
// The functions are __host__ __device__ for one reason: the exhaustive sweeps use the device copy as a FILTER that
// only picks the inputs the host then re-checks with the host copy (sweep.cu). Every verdict is the host's.
#pragma once

#include <cstdint>

#include "cuconform/host_device.h"
#include "functions.h"

namespace cuconform_intrinsics {

// The seed of every pseudo-random input of the area (printed by each rule that uses it).
inline constexpr std::uint32_t kSeed = 0x5EED1DEAu;

namespace model {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using i64 = std::int64_t;

CUCONFORM_HOST_DEVICE inline u32 bit(u64 x, int k) { return u32((x >> k) & 1u); }

// Bits set to 1, counted one by one.
CUCONFORM_HOST_DEVICE inline u64 popcount(u64 x, int width) {
  u64 n = 0;
  for (int k = 0; k < width; ++k) n += bit(x, k);
  return n;
}

// "the number of consecutive leading zero bits, starting at the most significant bit": 0 to width.
CUCONFORM_HOST_DEVICE inline u64 leading_zeros(u64 x, int width) {
  u64 n = 0;
  for (int k = width - 1; k >= 0 && bit(x, k) == 0; --k) ++n;
  return n;
}

// "the position of the first (least significant) bit set to 1 ..., where the least significant bit position is
// 1"; 0 for x == 0.
CUCONFORM_HOST_DEVICE inline u64 first_set(u64 x, int width) {
  for (int k = 0; k < width; ++k) {
    if (bit(x, k)) return u64(k + 1);
  }
  return 0;
}

// "bit N of the return value corresponds to bit width-1-N of x".
CUCONFORM_HOST_DEVICE inline u64 reverse(u64 x, int width) {
  u64 r = 0;
  for (int n = 0; n < width; ++n) r |= u64(bit(x, width - 1 - n)) << n;
  return r;
}

// __byte_perm as documented: tmp64 = (y << 32) | x; selector_k = (s >> 4k) & 0x7; result byte k = tmp64 byte
// selector_k.
CUCONFORM_HOST_DEVICE inline u64 byte_perm(u32 x, u32 y, u32 s) {
  const u64 source = (u64(y) << 32) | x;
  u32 r = 0;
  for (int k = 0; k < 4; ++k) {
    const u32 selector = (s >> (4 * k)) & 0x7u;
    r |= u32((source >> (8 * selector)) & 0xffu) << (8 * k);
  }
  return r;
}

// Not documented for __byte_perm: PTX prmt's default mode, where bit 3 of a selector nibble replaces the byte by
// copies of its sign bit. Used only to say what a mismatching GPU value looks like.
CUCONFORM_HOST_DEVICE inline u64 byte_perm_sign_replicating(u32 x, u32 y, u32 s) {
  const u64 source = (u64(y) << 32) | x;
  u32 r = 0;
  for (int k = 0; k < 4; ++k) {
    const u32 nibble = (s >> (4 * k)) & 0xfu;
    u32 byte = u32((source >> (8 * (nibble & 0x7u))) & 0xffu);
    if (nibble & 0x8u) byte = (byte & 0x80u) ? 0xffu : 0u;
    r |= byte << (8 * k);
  }
  return r;
}

// hi:lo shifted left by n (0 <= n <= 32): the most significant 32 bits of the 64-bit value.
CUCONFORM_HOST_DEVICE inline u64 funnel_left(u32 lo, u32 hi, u32 n) {
  const u64 source = (u64(hi) << 32) | lo;
  return u32((source << n) >> 32);
}
// hi:lo shifted right by n (0 <= n <= 32): the least significant 32 bits.
CUCONFORM_HOST_DEVICE inline u64 funnel_right(u32 lo, u32 hi, u32 n) {
  const u64 source = (u64(hi) << 32) | lo;
  return u32(source >> n);
}

// The 24 least significant bits, as a signed (two's complement) or unsigned 24-bit integer.
CUCONFORM_HOST_DEVICE inline i64 low24_signed(u32 x) {
  const i64 v = i64(x & 0xffffffu);
  return (v & 0x800000) ? v - 0x1000000 : v;
}

// The 128-bit product of two 64-bit unsigned integers, from 32-bit limbs: its high 64 bits.
CUCONFORM_HOST_DEVICE inline u64 unsigned_product_high(u64 x, u64 y) {
  const u64 x0 = x & 0xffffffffu, x1 = x >> 32, y0 = y & 0xffffffffu, y1 = y >> 32;
  const u64 p00 = x0 * y0, p01 = x0 * y1, p10 = x1 * y0, p11 = x1 * y1;
  const u64 middle = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
  return p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32);
}

// The signed product's high half: the unsigned one, less y * 2^64 for negative x and x * 2^64 for negative y.
CUCONFORM_HOST_DEVICE inline u64 signed_product_high(u64 x, u64 y) {
  u64 high = unsigned_product_high(x, y);
  if (x >> 63) high -= y;
  if (y >> 63) high -= x;
  return high;
}

CUCONFORM_HOST_DEVICE inline i64 s32(u64 x) {
  const i64 v = i64(x & 0xffffffffu);
  return v >= 0x80000000ll ? v - 0x100000000ll : v;
}
CUCONFORM_HOST_DEVICE inline i64 magnitude(i64 v) { return v < 0 ? -v : v; }
// floor(v / 2) for any v of either sign, without relying on how >> treats negative values.
CUCONFORM_HOST_DEVICE inline i64 floor_half(i64 v) { return (v - (v & 1)) / 2; }

// Lane k of a 2-lane (16-bit) or 4-lane (8-bit) SIMD word, as unsigned and signed integers.
struct Lanes {
  int count, width;
  CUCONFORM_HOST_DEVICE i64 unsigned_lane(u32 x, int k) const { return i64((x >> (k * width)) & mask()); }
  CUCONFORM_HOST_DEVICE i64 signed_lane(u32 x, int k) const {
    const i64 u = unsigned_lane(x, k);
    return u >= (i64(1) << (width - 1)) ? u - (i64(1) << width) : u;
  }
  CUCONFORM_HOST_DEVICE u32 mask() const { return width == 16 ? 0xffffu : 0xffu; }
  CUCONFORM_HOST_DEVICE i64 signed_min() const { return -(i64(1) << (width - 1)); }
  CUCONFORM_HOST_DEVICE i64 signed_max() const { return (i64(1) << (width - 1)) - 1; }
  CUCONFORM_HOST_DEVICE i64 unsigned_max() const { return i64(mask()); }
};

CUCONFORM_HOST_DEVICE inline i64 clamp(i64 v, i64 low, i64 high) { return v < low ? low : (v > high ? high : v); }

enum class Compare { Eq, Ne, Ge, Gt, Le, Lt };
CUCONFORM_HOST_DEVICE inline bool holds(Compare c, i64 x, i64 y) {
  switch (c) {
    case Compare::Eq: return x == y;
    case Compare::Ne: return x != y;
    case Compare::Ge: return x >= y;
    case Compare::Gt: return x > y;
    case Compare::Le: return x <= y;
    default: return x < y;
  }
}

// The SIMD operations, by the name's middle part (__v<op>2, __v<op>4).
// clang-format off
enum class Simd {
  abs, absss, neg, negss, add, addss, addus, sub, subss, subus, avgs, avgu, haddu, absdiffs, absdiffu, maxs, maxu,
  mins, minu, sads, sadu, cmpeq, cmpges, cmpgeu, cmpgts, cmpgtu, cmples, cmpleu, cmplts, cmpltu, cmpne, seteq,
  setges, setgeu, setgts, setgtu, setles, setleu, setlts, setltu, setne
};
// clang-format on

struct Comparison {
  Compare compare;
  bool is_signed;
};
CUCONFORM_HOST_DEVICE inline Comparison comparison_of(Simd op) {
  switch (op) {
    case Simd::cmpeq:
    case Simd::seteq: return {Compare::Eq, false};
    case Simd::cmpne:
    case Simd::setne: return {Compare::Ne, false};
    case Simd::cmpges:
    case Simd::setges: return {Compare::Ge, true};
    case Simd::cmpgeu:
    case Simd::setgeu: return {Compare::Ge, false};
    case Simd::cmpgts:
    case Simd::setgts: return {Compare::Gt, true};
    case Simd::cmpgtu:
    case Simd::setgtu: return {Compare::Gt, false};
    case Simd::cmples:
    case Simd::setles: return {Compare::Le, true};
    case Simd::cmpleu:
    case Simd::setleu: return {Compare::Le, false};
    case Simd::cmplts:
    case Simd::setlts: return {Compare::Lt, true};
    default: return {Compare::Lt, false};
  }
}
CUCONFORM_HOST_DEVICE inline bool is_set(Simd op) { return op >= Simd::seteq; }
CUCONFORM_HOST_DEVICE inline bool is_compare(Simd op) { return op >= Simd::cmpeq && op <= Simd::cmpne; }

// The documented result of one SIMD intrinsic. __vset*: "If both [all 4] ... are satisfied, function returns 1",
// else 0; with per_lane_set, the other reading (each lane 1 or 0), used only to describe a mismatch.
CUCONFORM_HOST_DEVICE inline u64 simd(Simd op, int lane_count, u32 a, u32 b, bool per_lane_set = false) {
  const Lanes L{lane_count, 32 / lane_count};
  if (op == Simd::sads || op == Simd::sadu) {
    i64 sum = 0;
    for (int k = 0; k < L.count; ++k) {
      sum += op == Simd::sads ? magnitude(L.signed_lane(a, k) - L.signed_lane(b, k))
                              : magnitude(L.unsigned_lane(a, k) - L.unsigned_lane(b, k));
    }
    return u32(sum);
  }
  if (is_set(op) && !per_lane_set) {
    const Comparison c = comparison_of(op);
    bool all = true;
    for (int k = 0; k < L.count; ++k) {
      const i64 x = c.is_signed ? L.signed_lane(a, k) : L.unsigned_lane(a, k);
      const i64 y = c.is_signed ? L.signed_lane(b, k) : L.unsigned_lane(b, k);
      all = all && holds(c.compare, x, y);
    }
    return all ? 1u : 0u;
  }
  u32 result = 0;
  for (int k = 0; k < L.count; ++k) {
    const i64 ua = L.unsigned_lane(a, k), ub = L.unsigned_lane(b, k);
    const i64 sa = L.signed_lane(a, k), sb = L.signed_lane(b, k);
    i64 lane = 0;  // the exact lane value; stored modulo 2^width
    if (is_compare(op) || is_set(op)) {
      const Comparison c = comparison_of(op);
      const bool h = c.is_signed ? holds(c.compare, sa, sb) : holds(c.compare, ua, ub);
      lane = h ? (is_set(op) ? 1 : L.unsigned_max()) : 0;
    } else {
      switch (op) {
        case Simd::abs: lane = magnitude(sa); break;  // |most negative| wraps to itself
        case Simd::absss: lane = clamp(magnitude(sa), 0, L.signed_max()); break;
        case Simd::neg: lane = -sa; break;
        case Simd::negss: lane = clamp(-sa, L.signed_min(), L.signed_max()); break;
        case Simd::add: lane = ua + ub; break;
        case Simd::addss: lane = clamp(sa + sb, L.signed_min(), L.signed_max()); break;
        case Simd::addus: lane = clamp(ua + ub, 0, L.unsigned_max()); break;
        case Simd::sub: lane = ua - ub; break;
        case Simd::subss: lane = clamp(sa - sb, L.signed_min(), L.signed_max()); break;
        case Simd::subus: lane = clamp(ua - ub, 0, L.unsigned_max()); break;
        // "rounded average": (a + b) / 2 rounded as C's round() rounds, to nearest with ties away from zero (for
        // unsigned lanes, (a + b + 1) >> 1). README.md: the documentation does not name the tie rule.
        case Simd::avgs: lane = (sa + sb) >= 0 ? (sa + sb + 1) / 2 : -((1 - (sa + sb)) / 2); break;
        case Simd::avgu: lane = (ua + ub + 1) / 2; break;
        case Simd::haddu: lane = (ua + ub) / 2; break;
        case Simd::absdiffs: lane = magnitude(sa - sb); break;
        case Simd::absdiffu: lane = magnitude(ua - ub); break;
        case Simd::maxs: lane = sa > sb ? sa : sb; break;
        case Simd::maxu: lane = ua > ub ? ua : ub; break;
        case Simd::mins: lane = sa < sb ? sa : sb; break;
        case Simd::minu: lane = ua < ub ? ua : ub; break;
        default: break;
      }
    }
    result |= (u32(lane) & L.mask()) << (k * L.width);
  }
  return result;
}

}  // namespace model

// The documented result of f for the operands o.
CUCONFORM_HOST_DEVICE inline Result expected(Function f, Operands o) {
  using namespace model;
  const u32 a = u32(o.a), b = u32(o.b), c = u32(o.c);
  // The vector-typed dot products: the same operation on the same bits (vector component x is the low byte or half).
  switch (f) {
    case kDp4aSignedVector: f = kDp4aSigned; break;
    case kDp4aUnsignedVector: f = kDp4aUnsigned; break;
    case kDp2aLoSignedVector: f = kDp2aLoSigned; break;
    case kDp2aLoUnsignedVector: f = kDp2aLoUnsigned; break;
    case kDp2aHiSignedVector: f = kDp2aHiSigned; break;
    case kDp2aHiUnsignedVector: f = kDp2aHiUnsigned; break;
    default: break;
  }
  switch (f) {
    case kPopc: return popcount(a, 32);
    case kPopcll: return popcount(o.a, 64);
    case kClz: return leading_zeros(a, 32);
    case kClzll: return leading_zeros(o.a, 64);
    case kFfs: return first_set(a, 32);
    case kFfsll: return first_set(o.a, 64);
    case kBrev: return reverse(a, 32);
    case kBrevll: return reverse(o.a, 64);
    case kBytePerm: return byte_perm(a, b, c);
    case kFunnelshiftL: return funnel_left(a, b, c & 31u);
    case kFunnelshiftLc: return funnel_left(a, b, c < 32u ? c : 32u);
    case kFunnelshiftR: return funnel_right(a, b, c & 31u);
    case kFunnelshiftRc: return funnel_right(a, b, c < 32u ? c : 32u);
    case kMul24: return u32(u64(low24_signed(a) * low24_signed(b)));
    case kUmul24: return u32(u64(a & 0xffffffu) * u64(b & 0xffffffu));
    case kMulhi: return u32(u64(s32(a) * s32(b)) >> 32);
    case kUmulhi: return u32((u64(a) * u64(b)) >> 32);
    case kMul64hi: return signed_product_high(o.a, o.b);
    case kUmul64hi: return unsigned_product_high(o.a, o.b);
    case kSad: return u32(u64(magnitude(s32(a) - s32(b))) + c);
    case kUsad: return u32(u64(magnitude(i64(a) - i64(b))) + c);
    case kHadd: return u32(u64(floor_half(s32(a) + s32(b))));
    case kRhadd: return u32(u64(floor_half(s32(a) + s32(b) + 1)));
    case kUhadd: return u32((u64(a) + b) / 2);
    case kUrhadd: return u32((u64(a) + b + 1) / 2);
    case kDp4aSigned:
    case kDp4aUnsigned: {
      const Lanes bytes{4, 8};
      i64 sum = f == kDp4aSigned ? s32(c) : i64(c);
      for (int k = 0; k < 4; ++k) {
        sum += f == kDp4aSigned ? bytes.signed_lane(a, k) * bytes.signed_lane(b, k)
                                : bytes.unsigned_lane(a, k) * bytes.unsigned_lane(b, k);
      }
      return u32(u64(sum));  // the 32-bit accumulator: modulo 2^32
    }
    case kDp2aLoSigned:
    case kDp2aLoUnsigned:
    case kDp2aHiSigned:
    case kDp2aHiUnsigned: {
      const bool is_signed = f == kDp2aLoSigned || f == kDp2aHiSigned;
      const int first_byte = (f == kDp2aHiSigned || f == kDp2aHiUnsigned) ? 2 : 0;
      const Lanes halves{2, 16}, bytes{4, 8};
      i64 sum = is_signed ? s32(c) : i64(c);
      for (int k = 0; k < 2; ++k) {
        sum += is_signed ? halves.signed_lane(a, k) * bytes.signed_lane(b, first_byte + k)
                         : halves.unsigned_lane(a, k) * bytes.unsigned_lane(b, first_byte + k);
      }
      return u32(u64(sum));
    }
    case kPtxVabsdiff4Add: {
      const Lanes bytes{4, 8};
      i64 sum = i64(c);
      for (int k = 0; k < 4; ++k) sum += magnitude(bytes.unsigned_lane(a, k) - bytes.unsigned_lane(b, k));
      return u32(u64(sum));
    }
#define CUCONFORM_SIMD_MODEL(op)                   \
  case k_v##op##2: return simd(Simd::op, 2, a, b); \
  case k_v##op##4: return simd(Simd::op, 4, a, b);
      CUCONFORM_SIMD_UNARY(CUCONFORM_SIMD_MODEL)
      CUCONFORM_SIMD_BINARY(CUCONFORM_SIMD_MODEL)
#undef CUCONFORM_SIMD_MODEL
    default: return ~Result{0};
  }
}

// Another reading of an ambiguous or silent documentation, where one is worth naming in a failure message:
// __byte_perm with PTX prmt's sign replication, __vset* with one 0/1 result per lane. Returns false where none.
CUCONFORM_HOST_DEVICE inline bool alternative(Function f, Operands o, Result* value) {
  using namespace model;
  if (f == kBytePerm) {
    *value = byte_perm_sign_replicating(u32(o.a), u32(o.b), u32(o.c));
    return true;
  }
#define CUCONFORM_SIMD_ALTERNATIVE(op)                    \
  if (f == k_v##op##2 && is_set(Simd::op)) {              \
    *value = simd(Simd::op, 2, u32(o.a), u32(o.b), true); \
    return true;                                          \
  }                                                       \
  if (f == k_v##op##4 && is_set(Simd::op)) {              \
    *value = simd(Simd::op, 4, u32(o.a), u32(o.b), true); \
    return true;                                          \
  }
  CUCONFORM_SIMD_BINARY(CUCONFORM_SIMD_ALTERNATIVE)
#undef CUCONFORM_SIMD_ALTERNATIVE
  return false;
}

// A bijective 32-bit mixer (the finalizer of a well-known hash), salted: the pseudo-random part of the inputs.
CUCONFORM_HOST_DEVICE inline std::uint32_t mix(std::uint32_t i, std::uint32_t salt) {
  std::uint32_t h = i ^ (kSeed + salt * 0x9E3779B9u);
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return h;
}
CUCONFORM_HOST_DEVICE inline std::uint64_t mix64(std::uint32_t i, std::uint32_t salt) {
  return (std::uint64_t(mix(i, salt)) << 32) | mix(i, salt + 101u);
}
CUCONFORM_HOST_DEVICE inline std::uint32_t rotate_right(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

// Input number i of a sweep over the domain d (functions.h says what each covers).
CUCONFORM_HOST_DEVICE inline Operands generate(Domain d, std::uint32_t i) {
  switch (d) {
    case Domain::Unary32: return {i, 0, 0};
    case Domain::Unary64: {
      const std::uint64_t wide = (std::uint64_t(mix(i, 1)) << 32) | i;
      return {wide >> (mix(i, 2) & 63u), 0, 0};
    }
    case Domain::Pair32: return {i, mix(i, 1), 0};
    case Domain::Pair64: {
      std::uint64_t a = mix64(i, 1), b = mix64(i, 2);
      const std::uint32_t r = mix(i, 3);
      // An arithmetic shift right, written out: small magnitudes of either sign.
      if (r & 1u) a = (a >> 63) ? ~(~a >> ((r >> 2) & 63u)) : a >> ((r >> 2) & 63u);
      if (r & 2u) b = (b >> 63) ? ~(~b >> ((r >> 8) & 63u)) : b >> ((r >> 8) & 63u);
      return {a, b, 0};
    }
    case Domain::Triple32: return {i, mix(i, 1), mix(i, 2)};
    case Domain::Shift: return {mix(i, 1), mix(i, 2), i};
    case Domain::BytePerm:
    case Domain::BytePermAll: {
      const std::uint32_t k = i >> 16;
      const std::uint32_t low = d == Domain::BytePerm ? (i & 0x7777u) : (i & 0xffffu);
      return {mix(k, 1), mix(k, 2), low | (mix(k, 3) & 0xffff0000u)};
    }
    case Domain::Lanes16: return {i, rotate_right(i, 16) ^ 0x80008000u, 0};
    default: return {i, rotate_right(i, 8) ^ 0x80808080u, 0};
  }
}

}  // namespace cuconform_intrinsics
