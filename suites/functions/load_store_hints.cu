// 5.4.8.3 Low-Level Load and Store Functions: __ldg, __ldcg, __ldca, __ldcs, __ldlu, __ldcv load, and __stwb, __stcg,
// __stcs, __stwt store, the exact value for every documented type. The type list is the one PG12.9 10.10-10.12
// enumerates (the current guide says "all C++ fundamental types, CUDA vector types (except x3 components)"; the
// types of that wider reading the headers do not accept are compile-time rules, see README.md). Each rule runs one
// kernel per type with random bit patterns and compares every element byte for byte.
#include <cuconform/cuconform.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

enum Hint : int { kLdg, kLdcg, kLdca, kLdcs, kLdlu, kLdcv, kStwb, kStcg, kStcs, kStwt, kHintCount };
constexpr int kLoadCount = kStwb;
constexpr int kStoreCount = kHintCount - kStwb;
const char* const kHintNames[] = {"__ldg",  "__ldcg", "__ldca", "__ldcs", "__ldlu",
                                  "__ldcv", "__stwb", "__stcg", "__stcs", "__stwt"};

constexpr unsigned kElements = 200;  // not a multiple of the block size

// loaded[h * n + i] = load_h(&source[i]); store_h(&stored[h * n + i], source[i]).
template <class T>
__global__ void use_every_hint(const T* source, T* loaded, T* stored, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  loaded[kLdg * n + i] = __ldg(source + i);
  loaded[kLdcg * n + i] = __ldcg(source + i);
  loaded[kLdca * n + i] = __ldca(source + i);
  loaded[kLdcs * n + i] = __ldcs(source + i);
  loaded[kLdlu * n + i] = __ldlu(source + i);
  loaded[kLdcv * n + i] = __ldcv(source + i);
  const T value = source[i];
  __stwb(stored + (kStwb - kStwb) * n + i, value);
  __stcg(stored + (kStcg - kStwb) * n + i, value);
  __stcs(stored + (kStcs - kStwb) * n + i, value);
  __stwt(stored + (kStwt - kStwb) * n + i, value);
}

// Runs the kernel for T and returns, for the given hint, "" when every element is exact or a description of the
// first mismatches.
template <class T>
std::string check_type(Hint hint, const char* type_name, unsigned seed) {
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
  if (count == 0) return "";
  std::ostringstream message;
  message << kHintNames[hint] << " on " << type_name << ": " << count << " of " << kElements
          << " elements differ, first at" << mismatches.str() << "\n";
  return message.str();
}

// Every type PG12.9 10.10-10.12 lists, with the cuda_fp16.h and cuda_bf16.h types.
std::string check_every_type(Hint hint) {
  std::string failures;
  unsigned seed = 1;
#define CUCONFORM_CHECK_TYPE(T) failures += check_type<T>(hint, #T, seed++)
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
  return failures;
}

class LoadStoreHint : public cuconform::GpuTest {};

RULE_F(LoadStoreHint, LdgLoadsExactValue, "5.4.8.3",
       "__ldg returns the value at the address, for every documented type") {
  EXPECT_EQ(check_every_type(kLdg), "");
}

RULE_F(LoadStoreHint, LdcgLoadsExactValue, "5.4.8.3",
       "__ldcg returns the value at the address, for every documented type") {
  EXPECT_EQ(check_every_type(kLdcg), "");
}

RULE_F(LoadStoreHint, LdcaLoadsExactValue, "5.4.8.3",
       "__ldca returns the value at the address, for every documented type") {
  EXPECT_EQ(check_every_type(kLdca), "");
}

RULE_F(LoadStoreHint, LdcsLoadsExactValue, "5.4.8.3",
       "__ldcs returns the value at the address, for every documented type") {
  EXPECT_EQ(check_every_type(kLdcs), "");
}

RULE_F(LoadStoreHint, LdluLoadsExactValue, "5.4.8.3",
       "__ldlu returns the value at the address, for every documented type") {
  EXPECT_EQ(check_every_type(kLdlu), "");
}

RULE_F(LoadStoreHint, LdcvLoadsExactValue, "5.4.8.3",
       "__ldcv returns the value at the address, for every documented type") {
  EXPECT_EQ(check_every_type(kLdcv), "");
}

RULE_F(LoadStoreHint, StwbStoresExactValue, "5.4.8.3",
       "__stwb stores the value to the address, for every documented type") {
  EXPECT_EQ(check_every_type(kStwb), "");
}

RULE_F(LoadStoreHint, StcgStoresExactValue, "5.4.8.3",
       "__stcg stores the value to the address, for every documented type") {
  EXPECT_EQ(check_every_type(kStcg), "");
}

RULE_F(LoadStoreHint, StcsStoresExactValue, "5.4.8.3",
       "__stcs stores the value to the address, for every documented type") {
  EXPECT_EQ(check_every_type(kStcs), "");
}

RULE_F(LoadStoreHint, StwtStoresExactValue, "5.4.8.3",
       "__stwt stores the value to the address, for every documented type") {
  EXPECT_EQ(check_every_type(kStwt), "");
}

}  // namespace
