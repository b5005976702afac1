// 5.4.8.3 Low-Level Load and Store Functions: __ldg, __ldcg, __ldca, __ldcs, __ldlu, __ldcv load, and __stwb, __stcg,
// __stcs, __stwt store, the exact value for every documented type. The type list is the one PG12.9 10.10-10.12
// enumerates (the current guide says "all C++ fundamental types, CUDA vector types (except x3 components)"; the
// types of that wider reading the headers do not accept are compile-time rules, see README.md). Each rule runs one
// kernel per type with random bit patterns and compares every element byte for byte.
//
// clang's own CUDA headers lack some of these overloads (__ldca, __ldlu, __stwb, __stcg and __stcs for the built-in
// types, more for long and unsigned long): what the compiler does not declare is detected, compiled out, and named in
// the skip reason; the types it does declare are still checked.
#include <cuconform/cuconform.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

enum Hint : int { kLdg, kLdcg, kLdca, kLdcs, kLdlu, kLdcv, kStwb, kStcg, kStcs, kStwt, kHintCount };
constexpr int kLoadCount = kStwb;
constexpr int kStoreCount = kHintCount - kStwb;
const char* const kHintNames[] = {"__ldg",  "__ldcg", "__ldca", "__ldcs", "__ldlu",
                                  "__ldcv", "__stwb", "__stcg", "__stcs", "__stwt"};

constexpr unsigned kElements = 200;  // not a multiple of the block size

// Whether the compiler declares the overload of each hint for T.
#define CUCONFORM_DECLARES_LOAD(trait, function) \
  template <class T, class = void>               \
  struct trait : std::false_type {};             \
  template <class T>                             \
  struct trait<T, std::void_t<decltype(function(std::declval<const T*>()))>> : std::true_type {};
#define CUCONFORM_DECLARES_STORE(trait, function) \
  template <class T, class = void>                \
  struct trait : std::false_type {};              \
  template <class T>                              \
  struct trait<T, std::void_t<decltype(function(std::declval<T*>(), std::declval<T>()))>> : std::true_type {};
CUCONFORM_DECLARES_LOAD(DeclaresLdg, __ldg)
CUCONFORM_DECLARES_LOAD(DeclaresLdcg, __ldcg)
CUCONFORM_DECLARES_LOAD(DeclaresLdca, __ldca)
CUCONFORM_DECLARES_LOAD(DeclaresLdcs, __ldcs)
CUCONFORM_DECLARES_LOAD(DeclaresLdlu, __ldlu)
CUCONFORM_DECLARES_LOAD(DeclaresLdcv, __ldcv)
CUCONFORM_DECLARES_STORE(DeclaresStwb, __stwb)
CUCONFORM_DECLARES_STORE(DeclaresStcg, __stcg)
CUCONFORM_DECLARES_STORE(DeclaresStcs, __stcs)
CUCONFORM_DECLARES_STORE(DeclaresStwt, __stwt)
#undef CUCONFORM_DECLARES_LOAD
#undef CUCONFORM_DECLARES_STORE

template <class T>
constexpr bool declared(Hint hint) {
  switch (hint) {
    case kLdg: return DeclaresLdg<T>::value;
    case kLdcg: return DeclaresLdcg<T>::value;
    case kLdca: return DeclaresLdca<T>::value;
    case kLdcs: return DeclaresLdcs<T>::value;
    case kLdlu: return DeclaresLdlu<T>::value;
    case kLdcv: return DeclaresLdcv<T>::value;
    case kStwb: return DeclaresStwb<T>::value;
    case kStcg: return DeclaresStcg<T>::value;
    case kStcs: return DeclaresStcs<T>::value;
    case kStwt: return DeclaresStwt<T>::value;
    default: return false;
  }
}

// loaded[h * n + i] = load_h(&source[i]); store_h(&stored[h * n + i], source[i]).
template <class T>
__global__ void use_every_hint(const T* source, T* loaded, T* stored, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if constexpr (DeclaresLdg<T>::value) loaded[kLdg * n + i] = __ldg(source + i);
  if constexpr (DeclaresLdcg<T>::value) loaded[kLdcg * n + i] = __ldcg(source + i);
  if constexpr (DeclaresLdca<T>::value) loaded[kLdca * n + i] = __ldca(source + i);
  if constexpr (DeclaresLdcs<T>::value) loaded[kLdcs * n + i] = __ldcs(source + i);
  if constexpr (DeclaresLdlu<T>::value) loaded[kLdlu * n + i] = __ldlu(source + i);
  if constexpr (DeclaresLdcv<T>::value) loaded[kLdcv * n + i] = __ldcv(source + i);
  const T value = source[i];
  if constexpr (DeclaresStwb<T>::value) __stwb(stored + (kStwb - kStwb) * n + i, value);
  if constexpr (DeclaresStcg<T>::value) __stcg(stored + (kStcg - kStwb) * n + i, value);
  if constexpr (DeclaresStcs<T>::value) __stcs(stored + (kStcs - kStwb) * n + i, value);
  if constexpr (DeclaresStwt<T>::value) __stwt(stored + (kStwt - kStwb) * n + i, value);
}

// The outcome of a rule over every type: failures, and the types the compiler does not declare the hint for.
struct Outcome {
  std::string failures;
  std::string compiled_out;
};

// Runs the kernel for T and returns, for the given hint, "" when every element is exact or a description of the
// first mismatches.
template <class T>
void check_type(Hint hint, const char* type_name, unsigned seed, Outcome& outcome) {
  if (!declared<T>(hint)) {
    outcome.compiled_out += std::string(outcome.compiled_out.empty() ? "" : ", ") + type_name;
    return;
  }
  std::vector<unsigned char> bytes(kElements * sizeof(T));
  std::mt19937 random(seed);
  for (auto& b : bytes) b = static_cast<unsigned char>(random());
  std::vector<T> source(kElements);
  std::memcpy(static_cast<void*>(source.data()), bytes.data(), bytes.size());

  cuconform::DeviceBuffer<T> device_source(source);
  cuconform::DeviceBuffer<T> loaded(kLoadCount * kElements);
  cuconform::DeviceBuffer<T> stored(kStoreCount * kElements);
  cuconform::launch(use_every_hint<T>, cuconform::blocks_for(kElements, 64), 64, device_source.get(), loaded.get(),
                    stored.get(), kElements);
  const std::vector<T> results = hint < kStwb ? loaded.to_host() : stored.to_host();
  const unsigned offset = (hint < kStwb ? hint : hint - kStwb) * kElements;

  std::ostringstream mismatches;
  unsigned count = 0;
  for (unsigned i = 0; i < kElements; ++i) {
    if (std::memcmp(&results[offset + i], &source[i], sizeof(T)) == 0) continue;
    if (count++ < 3) mismatches << " [" << i << "]";
  }
  if (count == 0) return;
  std::ostringstream message;
  message << kHintNames[hint] << " on " << type_name << ": " << count << " of " << kElements
          << " elements differ, first at" << mismatches.str() << "\n";
  outcome.failures += message.str();
}

// Every type PG12.9 10.10-10.12 lists, with the cuda_fp16.h and cuda_bf16.h types.
Outcome check_every_type(Hint hint) {
  Outcome outcome;
  unsigned seed = 1;
#define CUCONFORM_CHECK_TYPE(T) check_type<T>(hint, #T, seed++, outcome)
  CUCONFORM_CHECK_TYPE(char);
  CUCONFORM_CHECK_TYPE(signed char);
  CUCONFORM_CHECK_TYPE(short);
  CUCONFORM_CHECK_TYPE(int);
  CUCONFORM_CHECK_TYPE(long);
  CUCONFORM_CHECK_TYPE(long long);
  CUCONFORM_CHECK_TYPE(unsigned char);
  CUCONFORM_CHECK_TYPE(unsigned short);
  CUCONFORM_CHECK_TYPE(unsigned int);
  CUCONFORM_CHECK_TYPE(unsigned long);
  CUCONFORM_CHECK_TYPE(unsigned long long);
  CUCONFORM_CHECK_TYPE(float);
  CUCONFORM_CHECK_TYPE(double);
  CUCONFORM_CHECK_TYPE(char2);
  CUCONFORM_CHECK_TYPE(char4);
  CUCONFORM_CHECK_TYPE(short2);
  CUCONFORM_CHECK_TYPE(short4);
  CUCONFORM_CHECK_TYPE(int2);
  CUCONFORM_CHECK_TYPE(int4);
  CUCONFORM_CHECK_TYPE(longlong2);
  CUCONFORM_CHECK_TYPE(uchar2);
  CUCONFORM_CHECK_TYPE(uchar4);
  CUCONFORM_CHECK_TYPE(ushort2);
  CUCONFORM_CHECK_TYPE(ushort4);
  CUCONFORM_CHECK_TYPE(uint2);
  CUCONFORM_CHECK_TYPE(uint4);
  CUCONFORM_CHECK_TYPE(ulonglong2);
  CUCONFORM_CHECK_TYPE(float2);
  CUCONFORM_CHECK_TYPE(float4);
  CUCONFORM_CHECK_TYPE(double2);
  CUCONFORM_CHECK_TYPE(__half);
  CUCONFORM_CHECK_TYPE(__half2);
  CUCONFORM_CHECK_TYPE(__nv_bfloat16);
  CUCONFORM_CHECK_TYPE(__nv_bfloat162);
#undef CUCONFORM_CHECK_TYPE
  return outcome;
}

class LoadStoreHint : public cuconform::GpuTest {
 protected:
  void check(Hint hint) {
    const Outcome outcome = check_every_type(hint);
    EXPECT_EQ(outcome.failures, "");
    if (!outcome.compiled_out.empty()) {
      SKIP_COMPILED_OUT("this compiler declares no " << kHintNames[hint] << " for " << outcome.compiled_out
                                                     << " (the other types were checked)");
    }
  }
};

RULE_F(LoadStoreHint, LdgLoadsExactValue, "5.4.8.3",
       "__ldg returns the value at the address, for every documented type") {
  check(kLdg);
}

RULE_F(LoadStoreHint, LdcgLoadsExactValue, "5.4.8.3",
       "__ldcg returns the value at the address, for every documented type") {
  check(kLdcg);
}

RULE_F(LoadStoreHint, LdcaLoadsExactValue, "5.4.8.3",
       "__ldca returns the value at the address, for every documented type") {
  check(kLdca);
}

RULE_F(LoadStoreHint, LdcsLoadsExactValue, "5.4.8.3",
       "__ldcs returns the value at the address, for every documented type") {
  check(kLdcs);
}

RULE_F(LoadStoreHint, LdluLoadsExactValue, "5.4.8.3",
       "__ldlu returns the value at the address, for every documented type") {
  check(kLdlu);
}

RULE_F(LoadStoreHint, LdcvLoadsExactValue, "5.4.8.3",
       "__ldcv returns the value at the address, for every documented type") {
  check(kLdcv);
}

RULE_F(LoadStoreHint, StwbStoresExactValue, "5.4.8.3",
       "__stwb stores the value to the address, for every documented type") {
  check(kStwb);
}

RULE_F(LoadStoreHint, StcgStoresExactValue, "5.4.8.3",
       "__stcg stores the value to the address, for every documented type") {
  check(kStcg);
}

RULE_F(LoadStoreHint, StcsStoresExactValue, "5.4.8.3",
       "__stcs stores the value to the address, for every documented type") {
  check(kStcs);
}

RULE_F(LoadStoreHint, StwtStoresExactValue, "5.4.8.3",
       "__stwt stores the value to the address, for every documented type") {
  check(kStwt);
}

}  // namespace
