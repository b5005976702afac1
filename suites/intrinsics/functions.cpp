#include "functions.h"

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace cuconform_intrinsics {

namespace {

struct Description {
  const char* name;
  int arity;
  Domain domain;
};

Description describe(Function f) {
  switch (f) {
    case kPopc: return {"__popc", 1, Domain::Unary32};
    case kPopcll: return {"__popcll", 1, Domain::Unary64};
    case kClz: return {"__clz", 1, Domain::Unary32};
    case kClzll: return {"__clzll", 1, Domain::Unary64};
    case kFfs: return {"__ffs", 1, Domain::Unary32};
    case kFfsll: return {"__ffsll", 1, Domain::Unary64};
    case kBrev: return {"__brev", 1, Domain::Unary32};
    case kBrevll: return {"__brevll", 1, Domain::Unary64};
    case kBytePerm: return {"__byte_perm", 3, Domain::BytePerm};
    case kFunnelshiftL: return {"__funnelshift_l", 3, Domain::Shift};
    case kFunnelshiftLc: return {"__funnelshift_lc", 3, Domain::Shift};
    case kFunnelshiftR: return {"__funnelshift_r", 3, Domain::Shift};
    case kFunnelshiftRc: return {"__funnelshift_rc", 3, Domain::Shift};
    case kMul24: return {"__mul24", 2, Domain::Pair32};
    case kUmul24: return {"__umul24", 2, Domain::Pair32};
    case kMulhi: return {"__mulhi", 2, Domain::Pair32};
    case kUmulhi: return {"__umulhi", 2, Domain::Pair32};
    case kMul64hi: return {"__mul64hi", 2, Domain::Pair64};
    case kUmul64hi: return {"__umul64hi", 2, Domain::Pair64};
    case kSad: return {"__sad", 3, Domain::Triple32};
    case kUsad: return {"__usad", 3, Domain::Triple32};
    case kHadd: return {"__hadd", 2, Domain::Pair32};
    case kRhadd: return {"__rhadd", 2, Domain::Pair32};
    case kUhadd: return {"__uhadd", 2, Domain::Pair32};
    case kUrhadd: return {"__urhadd", 2, Domain::Pair32};
    case kDp4aSigned: return {"__dp4a(int)", 3, Domain::Triple32};
    case kDp4aUnsigned: return {"__dp4a(unsigned)", 3, Domain::Triple32};
    case kDp2aLoSigned: return {"__dp2a_lo(int)", 3, Domain::Triple32};
    case kDp2aLoUnsigned: return {"__dp2a_lo(unsigned)", 3, Domain::Triple32};
    case kDp2aHiSigned: return {"__dp2a_hi(int)", 3, Domain::Triple32};
    case kDp2aHiUnsigned: return {"__dp2a_hi(unsigned)", 3, Domain::Triple32};
    case kDp4aSignedVector: return {"__dp4a(char4)", 3, Domain::Triple32};
    case kDp4aUnsignedVector: return {"__dp4a(uchar4)", 3, Domain::Triple32};
    case kDp2aLoSignedVector: return {"__dp2a_lo(short2)", 3, Domain::Triple32};
    case kDp2aLoUnsignedVector: return {"__dp2a_lo(ushort2)", 3, Domain::Triple32};
    case kDp2aHiSignedVector: return {"__dp2a_hi(short2)", 3, Domain::Triple32};
    case kDp2aHiUnsignedVector: return {"__dp2a_hi(ushort2)", 3, Domain::Triple32};
    case kPtxVabsdiff4Add: return {"vabsdiff4.u32.u32.u32.add", 3, Domain::Triple32};
#define CUCONFORM_SIMD_UNARY_DESCRIPTION(op)                   \
  case k_v##op##2: return {"__v" #op "2", 1, Domain::Unary32}; \
  case k_v##op##4: return {"__v" #op "4", 1, Domain::Unary32};
      CUCONFORM_SIMD_UNARY(CUCONFORM_SIMD_UNARY_DESCRIPTION)
#undef CUCONFORM_SIMD_UNARY_DESCRIPTION
#define CUCONFORM_SIMD_BINARY_DESCRIPTION(op)                  \
  case k_v##op##2: return {"__v" #op "2", 2, Domain::Lanes16}; \
  case k_v##op##4: return {"__v" #op "4", 2, Domain::Lanes8};
      CUCONFORM_SIMD_BINARY(CUCONFORM_SIMD_BINARY_DESCRIPTION)
#undef CUCONFORM_SIMD_BINARY_DESCRIPTION
    default: return {"?", 0, Domain::Unary32};
  }
}

}  // namespace

const char* name_of(Function f) { return describe(f).name; }
int arity_of(Function f) { return describe(f).arity; }
Domain domain_of(Function f) { return describe(f).domain; }
bool is_simd(Function f) { return f > kPtxVabsdiff4Add && f < kFunctionCount; }

namespace {

constexpr const char* kBlindFilter = ":blind-filter";

std::string simulation_text() {
  const char* text = std::getenv("CUCONFORM_INTRINSICS_SIMULATE");
  return text ? text : "";
}

}  // namespace

bool simulation_blinds_filter() {
  const std::string text = simulation_text();
  const std::string suffix = kBlindFilter;
  return text.size() > suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Function simulated_function() {
  static const Function simulated = [] {
    std::string name = simulation_text();
    if (simulation_blinds_filter()) name.erase(name.size() - std::string(kBlindFilter).size());
    if (name.empty()) return kFunctionCount;
    for (int f = 0; f < kFunctionCount; ++f) {
      if (name == name_of(Function(f))) return Function(f);
    }
    // A SIMD video instruction of video_simd.cu is simulated by its own rules (video_check.h).
    if (video::names_a_video_variant(name)) return kFunctionCount;
    throw std::invalid_argument("CUCONFORM_INTRINSICS_SIMULATE names no intrinsic of this area: " + name);
  }();
  return simulated;
}

}  // namespace cuconform_intrinsics
