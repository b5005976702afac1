#include "sweep.h"

#include <cuconform/cuconform.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

#include "model.h"

namespace cuconform_intrinsics {

namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

// A 32-bit word as the vector operands of the dot products: component x holds the least significant bits.
__device__ char4 as_char4(u32 v) {
  return make_char4(static_cast<signed char>(v), static_cast<signed char>(v >> 8), static_cast<signed char>(v >> 16),
                    static_cast<signed char>(v >> 24));
}
__device__ uchar4 as_uchar4(u32 v) {
  return make_uchar4(static_cast<unsigned char>(v), static_cast<unsigned char>(v >> 8),
                     static_cast<unsigned char>(v >> 16), static_cast<unsigned char>(v >> 24));
}
__device__ short2 as_short2(u32 v) { return make_short2(static_cast<short>(v), static_cast<short>(v >> 16)); }
__device__ ushort2 as_ushort2(u32 v) {
  return make_ushort2(static_cast<unsigned short>(v), static_cast<unsigned short>(v >> 16));
}

// The intrinsic itself. Results of 32-bit intrinsics (int or unsigned) are zero-extended bit patterns.
__device__ Result call(Function f, Operands o) {
  const u32 a = u32(o.a), b = u32(o.b), c = u32(o.c);
  const int sa = int(a), sb = int(b), sc = int(c);
  switch (f) {
    case kPopc: return u32(__popc(a));
    case kPopcll: return u32(__popcll(o.a));
    case kClz: return u32(__clz(sa));
    case kClzll: return u32(__clzll(static_cast<long long>(o.a)));
    case kFfs: return u32(__ffs(sa));
    case kFfsll: return u32(__ffsll(static_cast<long long>(o.a)));
    case kBrev: return __brev(a);
    case kBrevll: return __brevll(o.a);
    case kBytePerm: return __byte_perm(a, b, c);
    case kFunnelshiftL: return __funnelshift_l(a, b, c);
    case kFunnelshiftLc: return __funnelshift_lc(a, b, c);
    case kFunnelshiftR: return __funnelshift_r(a, b, c);
    case kFunnelshiftRc: return __funnelshift_rc(a, b, c);
    case kMul24: return u32(__mul24(sa, sb));
    case kUmul24: return __umul24(a, b);
    case kMulhi: return u32(__mulhi(sa, sb));
    case kUmulhi: return __umulhi(a, b);
    case kMul64hi: return static_cast<u64>(__mul64hi(static_cast<long long>(o.a), static_cast<long long>(o.b)));
    case kUmul64hi: return __umul64hi(o.a, o.b);
    case kSad: return __sad(sa, sb, c);
    case kUsad: return __usad(a, b, c);
    case kHadd: return u32(__hadd(sa, sb));
    case kRhadd: return u32(__rhadd(sa, sb));
    case kUhadd: return __uhadd(a, b);
    case kUrhadd: return __urhadd(a, b);
    case kDp4aSigned: return u32(__dp4a(sa, sb, sc));
    case kDp4aUnsigned: return __dp4a(a, b, c);
    case kDp2aLoSigned: return u32(__dp2a_lo(sa, sb, sc));
    case kDp2aLoUnsigned: return __dp2a_lo(a, b, c);
    case kDp2aHiSigned: return u32(__dp2a_hi(sa, sb, sc));
    case kDp2aHiUnsigned: return __dp2a_hi(a, b, c);
    case kDp4aSignedVector: return u32(__dp4a(as_char4(a), as_char4(b), sc));
    case kDp4aUnsignedVector: return __dp4a(as_uchar4(a), as_uchar4(b), c);
    case kDp2aLoSignedVector: return u32(__dp2a_lo(as_short2(a), as_char4(b), sc));
    case kDp2aLoUnsignedVector: return __dp2a_lo(as_ushort2(a), as_uchar4(b), c);
    case kDp2aHiSignedVector: return u32(__dp2a_hi(as_short2(a), as_char4(b), sc));
    case kDp2aHiUnsignedVector: return __dp2a_hi(as_ushort2(a), as_uchar4(b), c);
    case kPtxVabsdiff4Add: {
      // PG12.9 10.41's example, as the guide writes it.
      u32 result;
      asm("vabsdiff4.u32.u32.u32.add"
          " %0, %1, %2, %3;"
          : "=r"(result)
          : "r"(a), "r"(b), "r"(c));
      return result;
    }
#define CUCONFORM_SIMD_UNARY_CALL(op)    \
  case k_v##op##2: return __v##op##2(a); \
  case k_v##op##4: return __v##op##4(a);
      CUCONFORM_SIMD_UNARY(CUCONFORM_SIMD_UNARY_CALL)
#undef CUCONFORM_SIMD_UNARY_CALL
#define CUCONFORM_SIMD_BINARY_CALL(op)      \
  case k_v##op##2: return __v##op##2(a, b); \
  case k_v##op##4: return __v##op##4(a, b);
      CUCONFORM_SIMD_BINARY(CUCONFORM_SIMD_BINARY_CALL)
#undef CUCONFORM_SIMD_BINARY_CALL
    default: return ~Result{0};
  }
}

// CUCONFORM_INTRINSICS_SIMULATE: the wrong value the simulated intrinsic returns for 1 input in 1024 (those whose
// low 10 bits of a are all 1, so that the audit sample of an exhaustive sweep meets some of them).
CUCONFORM_HOST_DEVICE inline Result corrupt(Result y, Operands o) { return (o.a & 0x3ffu) == 0x3ffu ? y ^ 1u : y; }

struct Observation {
  u64 index;  // the input's number in the sweep's domain, or in the list
  Result value;
};

struct SweepArgs {
  Function f;
  Domain domain;
  Function simulated;
  bool blind_filter;  // CUCONFORM_INTRINSICS_SIMULATE=...:blind-filter
  u64 count;          // inputs j in [0, count), each being input number i = j * multiplier (mod 2^32)
  u32 multiplier;     // odd: j -> i is a bijection on [0, 2^32)
  int sample_shift;   // the audit sample: j % 2^sample_shift == 0 or == 2^sample_shift - 1
  Observation* candidates;
  u64 capacity;
  unsigned long long* candidate_count;
  Observation* samples;
};

CUCONFORM_HOST_DEVICE inline u64 sample_slot(u64 j, int shift, bool* sampled) {
  const u64 low = j & ((u64{1} << shift) - 1);
  *sampled = low == 0 || low == (u64{1} << shift) - 1;
  return (j >> shift) * 2 + (low != 0);
}

__global__ void sweep_kernel(SweepArgs args) {
  const u64 stride = u64{gridDim.x} * blockDim.x;
  for (u64 j = u64{blockIdx.x} * blockDim.x + threadIdx.x; j < args.count; j += stride) {
    const u32 i = u32(j) * args.multiplier;
    const Operands o = generate(args.domain, i);
    Result y = call(args.f, o);
    if (args.f == args.simulated) y = corrupt(y, o);
    // The filter: the device copy of the model only decides what the host looks at.
    if (!args.blind_filter && y != expected(args.f, o)) {
      const unsigned long long slot = atomicAdd(args.candidate_count, 1ull);
      if (slot < args.capacity) args.candidates[slot] = {i, y};
    }
    bool sampled = false;
    const u64 slot = sample_slot(j, args.sample_shift, &sampled);
    if (sampled) args.samples[slot] = {i, y};
  }
}

__global__ void list_kernel(Function f, Function simulated, const Operands* inputs, u64 count, Result* outputs) {
  const u64 stride = u64{gridDim.x} * blockDim.x;
  for (u64 j = u64{blockIdx.x} * blockDim.x + threadIdx.x; j < count; j += stride) {
    Result y = call(f, inputs[j]);
    if (f == simulated) y = corrupt(y, inputs[j]);
    outputs[j] = y;
  }
}

constexpr unsigned kBlocks = 1024, kThreads = 256;
constexpr u64 kCapacity = u64{1} << 20;  // candidates the host can re-check; more are counted, reported, failed
constexpr std::size_t kShown = 8;

std::string hex(u64 v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

// Mismatches of one input set: counted, the first ones described.
struct Tally {
  u64 checked = 0, differing = 0, matching_alternative = 0;
  std::ostringstream shown;

  void check(Function f, Operands o, Result gpu) {
    ++checked;
    const Result host = expected(f, o);
    if (gpu == host) return;
    Result other = 0;
    const bool alt = alternative(f, o, &other) && other == gpu;
    matching_alternative += alt;
    if (differing++ < kShown) {
      shown << "\n    " << name_of(f) << "(" << hex(o.a);
      if (arity_of(f) > 1) shown << ", " << hex(o.b);
      if (arity_of(f) > 2) shown << ", " << hex(o.c);
      shown << "): GPU " << hex(gpu) << ", host model " << hex(host);
      if (alt) shown << " (the GPU value is the other reading: " << alternative_name(f) << ")";
    }
  }
  static const char* alternative_name(Function f) {
    return f == kBytePerm ? "PTX prmt sign replication for selector bit 3" : "one 0/1 result per lane";
  }
};

// The list: boundary values in every combination the arity allows, then seeded pseudo-random inputs.
std::vector<Operands> list_inputs(Function f, Domain d, u64 random_count) {
  // The last two are the inputs of the SIMD documentation's examples (__vcmpeq2(0x1234aba5, 0x1234aba6), ...).
  static const u32 edges32[] = {
      0u,          1u,          2u,          3u,          5u,          0x7fu,       0x80u,       0xffu,
      0x100u,      0x7fffu,     0x8000u,     0xffffu,     0x10000u,    0x7fffffu,   0x800000u,   0xffffffu,
      0x1000000u,  0x7fffffffu, 0x80000000u, 0x80000001u, 0xfffffffeu, 0xffffffffu, 0xffff0000u, 0x00ff00ffu,
      0xff00ff00u, 0x7f7f7f7fu, 0x80808080u, 0x01010101u, 0xfefefefeu, 0x7fff7fffu, 0x80008000u, 0x80017fffu,
      0x55555555u, 0xaaaaaaaau, 0x12345678u, 0xdeadbeefu, 0x1234aba5u, 0x1234aba6u};
  std::vector<u64> edges64;
  for (int k = 0; k < 64; ++k) {
    const u64 p = u64{1} << k;
    for (u64 v : {p, p - 1, ~p, ~p + 1}) edges64.push_back(v);
  }
  for (u32 v : edges32) edges64.push_back(v), edges64.push_back(u64(std::int64_t(std::int32_t(v))));

  std::vector<Operands> inputs;
  const int arity = arity_of(f);
  if (d == Domain::Unary64 || d == Domain::Pair64) {
    for (u64 a : edges64) {
      if (arity == 1) {
        inputs.push_back({a, 0, 0});
      } else {
        for (u64 b : edges64) inputs.push_back({a, b, 0});
      }
    }
  } else if (arity == 1) {
    for (u32 a : edges32) inputs.push_back({a, 0, 0});
  } else {
    std::vector<u32> thirds;
    if (d == Domain::Shift) {
      for (u32 s = 0; s <= 70; ++s) thirds.push_back(s);
      for (u32 s : {0x7fffffffu, 0x80000000u, 0x80000020u, 0xffffffe0u, 0xffffffffu, 255u, 256u, 1000u})
        thirds.push_back(s);
    } else if (d == Domain::BytePerm || d == Domain::BytePermAll) {
      thirds = {0x3210u, 0x7654u, 0x0123u, 0x4567u, 0x5140u, 0x7777u, 0x0000u, 0xffff3210u, 0x12345670u};
      if (d == Domain::BytePermAll) {
        for (u32 s : {0x8888u, 0xfedcu, 0xba98u, 0xc480u, 0xffffu, 0x0008u, 0x80f0u}) thirds.push_back(s);
      }
    } else if (arity == 3) {
      thirds = {0u, 1u, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0xfffffffeu, 12345u};
    } else {
      thirds = {0u};
    }
    for (u32 a : edges32) {
      for (u32 b : edges32) {
        for (u32 c : thirds) inputs.push_back({a, b, c});
      }
    }
  }
  // Pseudo-random inputs: the domain's generator at pseudo-random points (so they keep its constraints) and,
  // for domains other than BytePerm, independent pseudo-random words.
  for (u64 k = 0; k < random_count; ++k) {
    Operands o = generate(d, mix(u32(k), 7));
    if (d != Domain::BytePerm && (k & 1)) {
      o.a = mix64(u32(k), 11), o.b = mix64(u32(k), 13), o.c = mix64(u32(k), 17);
      if (d != Domain::Unary64 && d != Domain::Pair64) o.a &= 0xffffffffu, o.b &= 0xffffffffu, o.c &= 0xffffffffu;
      if (d == Domain::BytePermAll) o.c &= 0xffffffffu;
    }
    inputs.push_back(o);
  }
  return inputs;
}

// What the "GPU" returns under host simulation: the model, corrupted for the simulated intrinsic.
Result simulated_call(Function f, Operands o) {
  const Result y = expected(f, o);
  return f == simulated_function() ? corrupt(y, o) : y;
}

int log2_of(u64 count) {
  int n = 0;
  while ((u64{1} << n) < count) ++n;
  return n;
}

}  // namespace

bool host_simulation() {
  static const bool on = [] {
    if (simulated_function() == kFunctionCount) return false;
    int devices = 0;
    return cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0;
  }();
  return on;
}

::testing::AssertionResult MatchesModel(Function f, Domain d) {
  const bool full = cuconform::full_profile();
  const bool on_host = host_simulation();
  // The sweep's size: exhaustive (2^32) in the full profile, and in the quick profile for __popc, __clz, __ffs and
  // __brev; 2^24 scattered inputs otherwise. Byte permutations and funnel shifts take the first 2^24 inputs in the
  // quick profile: every selector, and every small shift amount.
  const bool exhaustive = full || (d == Domain::Unary32 && !is_simd(f));
  u64 count = exhaustive ? (u64{1} << 32) : (u64{1} << 24);
  const bool ordered = exhaustive || d == Domain::BytePerm || d == Domain::BytePermAll || d == Domain::Shift;
  const u32 multiplier = ordered ? 1u : 0x9E3779B1u;
  if (on_host) count = std::min<u64>(count, u64{1} << 20);
  // The audit sample: 2^18 inputs in the full profile, 2^15 in the quick one (2 of every block of 2^shift). It and
  // the list are re-checked on one host core: sized so that the host's share of a full run stays a few seconds.
  const int sample_shift = std::max(1, log2_of(count) - (full ? 17 : 14));
  const u64 sample_count = ((count + (u64{1} << sample_shift) - 1) >> sample_shift) * 2;
  const u64 random_count = full ? (u64{1} << 18) : (u64{1} << 13);

  std::vector<Observation> candidates, samples;
  u64 candidate_count = 0;
  const std::vector<Operands> inputs = list_inputs(f, d, random_count);
  std::vector<Result> outputs;
  double sweep_seconds = 0;  // the sweep kernel's launch to its completion
  if (on_host) {
    for (u64 j = 0; j < count; ++j) {
      const u32 i = u32(j) * multiplier;
      const Operands o = generate(d, i);
      const Result y = simulated_call(f, o);
      const bool candidate = !simulation_blinds_filter() && y != expected(f, o);
      if (candidate && candidate_count++ < kCapacity) candidates.push_back({i, y});
      bool sampled = false;
      const u64 slot = sample_slot(j, sample_shift, &sampled);
      if (sampled) samples.resize(std::max<u64>(samples.size(), slot + 1)), samples[slot] = {i, y};
    }
    for (const Operands& o : inputs) outputs.push_back(simulated_call(f, o));
  } else {
    cuconform::DeviceBuffer<Observation> device_candidates(kCapacity), device_samples(sample_count);
    cuconform::DeviceBuffer<unsigned long long> device_count(1);
    const SweepArgs args{f,
                         d,
                         simulated_function(),
                         simulation_blinds_filter(),
                         count,
                         multiplier,
                         sample_shift,
                         device_candidates.get(),
                         kCapacity,
                         device_count.get(),
                         device_samples.get()};
    const auto start = std::chrono::steady_clock::now();
    cuconform::launch(sweep_kernel, kBlocks, kThreads, args);
    sweep_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    candidate_count = device_count.value_at(0);
    candidates = device_candidates.to_host(std::min(candidate_count, kCapacity));
    samples = device_samples.to_host();

    cuconform::DeviceBuffer<Operands> device_inputs(inputs);
    cuconform::DeviceBuffer<Result> device_outputs(inputs.size());
    cuconform::launch(list_kernel, kBlocks, kThreads, f, simulated_function(), device_inputs.get(), u64(inputs.size()),
                      device_outputs.get());
    outputs = device_outputs.to_host();
  }

  Tally filtered, audited, listed;
  for (const Observation& c : candidates) filtered.check(f, generate(d, u32(c.index)), c.value);
  for (const Observation& s : samples) audited.check(f, generate(d, u32(s.index)), s.value);
  for (std::size_t k = 0; k < inputs.size(); ++k) listed.check(f, inputs[k], outputs[k]);
  // A candidate the host model clears: the device copy of the model disagrees with the host copy.
  const u64 filter_false_alarms = filtered.checked - filtered.differing;

  cuconform::record_metric("seed", hex(kSeed));
  cuconform::record_metric("sweep_inputs", static_cast<long long>(count));
  if (!on_host) cuconform::record_metric("sweep_seconds", sweep_seconds);
  cuconform::record_metric("sweep_candidates", static_cast<long long>(candidate_count));
  cuconform::record_metric("sweep_differing", static_cast<long long>(filtered.differing));
  cuconform::record_metric("audit_sample_inputs", static_cast<long long>(audited.checked));
  cuconform::record_metric("list_inputs", static_cast<long long>(listed.checked));
  if (filter_false_alarms) cuconform::record_metric("filter_false_alarms", static_cast<long long>(filter_false_alarms));

  const bool overflow = candidate_count > kCapacity;
  if (!overflow && filtered.differing == 0 && audited.differing == 0 && listed.differing == 0) {
    return ::testing::AssertionSuccess();
  }
  auto failure = ::testing::AssertionFailure();
  failure << name_of(f) << " differs from its documented result (seed " << hex(kSeed) << ", "
          << (on_host ? "host simulation, " : "") << "sweep of " << count << " inputs"
          << (count == (u64{1} << 32) ? ", exhaustive over the domain" : "") << ")";
  if (overflow) {
    failure << "\n  the sweep found " << candidate_count << " candidates; only the first " << kCapacity
            << " were re-checked on the host";
  }
  const auto section = [&](const char* what, const Tally& t) {
    if (t.differing == 0) return;
    failure << "\n  " << what << ": " << t.differing << " of " << t.checked << " differ";
    if (t.matching_alternative) failure << " (" << t.matching_alternative << " of them match the other reading)";
    failure << t.shown.str();
  };
  section("sweep, candidates re-checked on the host", filtered);
  section("sweep, audit sample", audited);
  section("edge and random inputs", listed);
  return failure;
}

}  // namespace cuconform_intrinsics

namespace cuconform_intrinsics {

void PrintTo(Function f, std::ostream* os) { *os << name_of(f); }

std::string ParamName(const ::testing::TestParamInfo<Function>& info) {
  std::string name = name_of(info.param);
  name.erase(0, name.find_first_not_of('_'));
  return name;
}

}  // namespace cuconform_intrinsics
