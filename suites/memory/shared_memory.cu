// 5.4.1.2.1 __shared__ Memory, Table 39 and 2.2.3.2: static and dynamic shared memory, its scope (the block), one
// instance per block, extern arrays (one dynamic allocation, partitioned by pointer arithmetic) and static and
// dynamic memory side by side.
#include <cuconform/cuconform.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace {

// --- Static shared memory: visible to every thread of the block, one instance per block. ----------------------------

constexpr unsigned kBlockThreads = 256;

__host__ __device__ unsigned pattern(unsigned block, unsigned thread) { return block * 1000003u + thread * 7u + 1u; }

__global__ void exchange_through_static_shared(unsigned* read_back) {
  __shared__ unsigned slots[kBlockThreads];
  const unsigned t = threadIdx.x;
  slots[t] = pattern(blockIdx.x, t);
  __syncthreads();
  read_back[blockIdx.x * kBlockThreads + t] = slots[(t + 97) % kBlockThreads];
}

class StaticShared : public cuconform::GpuTest {};

RULE_F(StaticShared, AccessibleByEveryThreadOfTheBlock, "5.4.1.2",
       "a __shared__ variable is accessible by all threads of the block: each thread reads what another wrote") {
  constexpr unsigned kBlocks = 4;
  cuconform::DeviceBuffer<unsigned> read_back(kBlocks * kBlockThreads);
  cuconform::launch(exchange_through_static_shared, kBlocks, kBlockThreads, read_back.get());
  std::vector<unsigned> expected;
  for (unsigned b = 0; b < kBlocks; ++b) {
    for (unsigned t = 0; t < kBlockThreads; ++t) expected.push_back(pattern(b, (t + 97) % kBlockThreads));
  }
  EXPECT_TRUE(cuconform::ElementsEqual(read_back.to_host(), expected));
}

__global__ void claim_static_shared(unsigned* owner_seen) {
  __shared__ unsigned owner;
  if (threadIdx.x == 0) owner = blockIdx.x;
  __syncthreads();
  // Stay resident for a while, so that many blocks hold their instance at the same time.
  const long long start = clock64();
  while (clock64() - start < 20000) {}
  owner_seen[blockIdx.x * blockDim.x + threadIdx.x] = owner;
}

RULE_F(StaticShared, OneInstancePerBlock, "5.4.1.2",
       "a __shared__ variable has a unique instance per block: concurrently running blocks each see only their own") {
  const unsigned blocks = 4 * cuconform::device().properties.multiProcessorCount;
  constexpr unsigned kThreads = 64;
  cuconform::DeviceBuffer<unsigned> seen(blocks * kThreads);
  cuconform::launch(claim_static_shared, blocks, kThreads, seen.get());
  std::vector<unsigned> expected;
  for (unsigned b = 0; b < blocks; ++b) expected.insert(expected.end(), kThreads, b);
  EXPECT_TRUE(cuconform::ElementsEqual(seen.to_host(), expected));
}

// --- Dynamic shared memory. ------------------------------------------------------------------------------------------

extern __shared__ unsigned char dynamic_bytes[];
extern __shared__ float dynamic_floats[];
extern __shared__ short dynamic_shorts[];

__host__ __device__ unsigned char byte_pattern(unsigned i, unsigned block) {
  return (i * 7u + block * 13u + 5u) & 0xffu;
}

// Every byte of the dynamic allocation is written once and read back by another thread, which records it.
__global__ void fill_dynamic_shared(unsigned bytes, unsigned char* seen) {
  for (unsigned i = threadIdx.x; i < bytes; i += blockDim.x) dynamic_bytes[i] = byte_pattern(i, blockIdx.x);
  __syncthreads();
  for (unsigned i = (threadIdx.x + 1) % blockDim.x; i < bytes; i += blockDim.x) {
    seen[blockIdx.x * bytes + i] = dynamic_bytes[i];
  }
}

class DynamicShared : public cuconform::GpuTestWithParam<unsigned> {};

RULE_P(DynamicShared, LaunchArgumentBytesAreUsable, "5.4.1.2.1",
       "an extern __shared__ array has the size given at launch: every one of its dynamic_smem_bytes is usable") {
  const unsigned bytes = GetParam();
  constexpr unsigned kBlocks = 3;
  cuconform::DeviceBuffer<unsigned char> seen(kBlocks * bytes);
  cuconform::launch(fill_dynamic_shared, cuconform::Shape{kBlocks, 128, bytes}, bytes, seen.get());
  std::vector<unsigned char> expected;
  for (unsigned b = 0; b < kBlocks; ++b) {
    for (unsigned i = 0; i < bytes; ++i) expected.push_back(byte_pattern(i, b));
  }
  EXPECT_TRUE(cuconform::ElementsEqual(seen.to_host(), expected, [bytes](std::size_t i) {
    return "block " + std::to_string(i / bytes) + ", byte " + std::to_string(i % bytes);
  })) << "each byte as another thread read it back";
}

// Sizes up to 48 KB, which needs no opt-in (PG12.9 20.2 Table 28, footnote 35).
INSTANTIATE_TEST_SUITE_P(Bytes, DynamicShared, ::testing::Values(1u, 16u, 1000u, 4096u, 49152u));

__global__ void compare_extern_arrays(unsigned long long* addresses, short* read_back, float* read_as_float) {
  addresses[0] = reinterpret_cast<std::uintptr_t>(dynamic_bytes);
  addresses[1] = reinterpret_cast<std::uintptr_t>(dynamic_floats);
  addresses[2] = reinterpret_cast<std::uintptr_t>(dynamic_shorts);
  // Written as bytes (which may alias any type), read as shorts and as a float: the bytes of 1.0f, little-endian.
  const unsigned char one[4] = {0x00, 0x00, 0x80, 0x3f};
  for (int i = 0; i < 4; ++i) dynamic_bytes[i] = one[i];
  read_back[0] = dynamic_shorts[0];
  read_back[1] = dynamic_shorts[1];
  *read_as_float = dynamic_floats[0];
}

class ExternShared : public cuconform::GpuTest {};

RULE_F(ExternShared, AllDeclarationsStartTheOneDynamicAllocation, "2.2.3.2.2",
       "there is a single dynamic shared allocation: every extern __shared__ array, whatever its type, starts it") {
  cuconform::DeviceBuffer<unsigned long long> addresses(3);
  cuconform::DeviceBuffer<short> read_back(2);
  cuconform::DeviceBuffer<float> read_as_float(1);
  cuconform::launch(compare_extern_arrays, cuconform::Shape{1, 1, 64}, addresses.get(), read_back.get(),
                    read_as_float.get());
  const std::vector<unsigned long long> a = addresses.to_host();
  EXPECT_EQ(a[1], a[0]) << "extern float[] and extern unsigned char[]";
  EXPECT_EQ(a[2], a[0]) << "extern short[] and extern unsigned char[]";
  EXPECT_TRUE(cuconform::ElementsEqual(read_back.to_host(), std::vector<short>{0x0000, 0x3f80}))
      << "the bytes of 1.0f written through the unsigned char array, read through the short array";
  EXPECT_EQ(read_as_float.value_at(0), 1.0f) << "the same bytes read through the float array";
}

// The guide's example: short array0[128], float array1[64] and int array2[256] carved out of one extern array.
constexpr unsigned kPartitionBytes = 128 * sizeof(short) + 64 * sizeof(float) + 256 * sizeof(int);

__global__ void use_partitioned_dynamic_shared(int* out) {
  extern __shared__ float array[];
  short* array0 = (short*)array;
  float* array1 = (float*)&array0[128];
  int* array2 = (int*)&array1[64];
  const int t = threadIdx.x;  // 256 threads
  if (t < 128) array0[t] = short(3 * t + 1);
  if (t < 64) array1[t] = float(t) + 0.5f;
  array2[t] = ~t;
  __syncthreads();
  const int u = 255 - t;  // read what another thread wrote
  out[3 * t + 0] = u < 128 ? array0[u] : 0;
  out[3 * t + 1] = u < 64 ? int(array1[u] * 2.0f) : 0;
  out[3 * t + 2] = array2[u];
}

RULE_F(ExternShared, PartitionedByPointerArithmetic, "2.2.3.2.2",
       "several dynamic arrays are made by partitioning the single extern __shared__ array with pointer arithmetic: "
       "the guide's short[128], float[64], int[256] do not overlap") {
  cuconform::DeviceBuffer<int> out(3 * 256);
  cuconform::launch(use_partitioned_dynamic_shared, cuconform::Shape{1, 256, kPartitionBytes}, out.get());
  std::vector<int> expected;
  for (int t = 0; t < 256; ++t) {
    const int u = 255 - t;
    expected.push_back(u < 128 ? 3 * u + 1 : 0);
    expected.push_back(u < 64 ? 2 * u + 1 : 0);
    expected.push_back(~u);
  }
  EXPECT_TRUE(cuconform::ElementsEqual(out.to_host(), expected));
}

// --- Static and dynamic shared memory together. ----------------------------------------------------------------------

constexpr unsigned kStaticWords = 1024;   // 4 KB
constexpr unsigned kDynamicWords = 2048;  // 8 KB

// Both arrays are filled, then each word is read back by another thread, which records it: static words first, then
// dynamic words, per block.
__global__ void use_static_and_dynamic_shared(unsigned* seen, unsigned long long* ranges) {
  __shared__ unsigned static_words[kStaticWords];
  unsigned* dynamic_words = reinterpret_cast<unsigned*>(dynamic_bytes);
  for (unsigned i = threadIdx.x; i < kStaticWords; i += blockDim.x) static_words[i] = 0x50000000u + i;
  for (unsigned i = threadIdx.x; i < kDynamicWords; i += blockDim.x) dynamic_words[i] = 0xd0000000u + i;
  __syncthreads();
  unsigned* const block_seen = seen + blockIdx.x * (kStaticWords + kDynamicWords);
  for (unsigned i = (threadIdx.x + 1) % blockDim.x; i < kStaticWords; i += blockDim.x) block_seen[i] = static_words[i];
  for (unsigned i = (threadIdx.x + 1) % blockDim.x; i < kDynamicWords; i += blockDim.x) {
    block_seen[kStaticWords + i] = dynamic_words[i];
  }
  if (threadIdx.x == 0) {
    ranges[0] = __cvta_generic_to_shared(static_words);
    ranges[1] = __cvta_generic_to_shared(dynamic_words);
  }
}

RULE_F(StaticShared, DynamicAllocationIsInAdditionToStatic, "5.4.3",
       "dynamic_smem_bytes are allocated per block in addition to the statically allocated shared memory: both are "
       "fully usable and do not overlap") {
  constexpr unsigned kBlocks = 2, kWords = kStaticWords + kDynamicWords;
  cuconform::DeviceBuffer<unsigned> seen(kBlocks * kWords);
  cuconform::DeviceBuffer<unsigned long long> ranges(2);
  cuconform::launch(use_static_and_dynamic_shared, cuconform::Shape{kBlocks, 256, kDynamicWords * 4}, seen.get(),
                    ranges.get());
  std::vector<unsigned> expected;
  for (unsigned b = 0; b < kBlocks; ++b) {
    for (unsigned i = 0; i < kStaticWords; ++i) expected.push_back(0x50000000u + i);
    for (unsigned i = 0; i < kDynamicWords; ++i) expected.push_back(0xd0000000u + i);
  }
  EXPECT_TRUE(cuconform::ElementsEqual(seen.to_host(), expected, [](std::size_t i) {
    const std::size_t word = i % kWords;
    return "block " + std::to_string(i / kWords) + ", " +
           (word < kStaticWords ? "static word " + std::to_string(word)
                                : "dynamic word " + std::to_string(word - kStaticWords));
  })) << "each word as another thread read it back";
  const std::vector<unsigned long long> r = ranges.to_host();
  const bool disjoint = r[0] + kStaticWords * 4 <= r[1] || r[1] + kDynamicWords * 4 <= r[0];
  EXPECT_TRUE(disjoint) << "static at shared offset " << r[0] << " (4096 bytes), dynamic at " << r[1]
                        << " (8192 bytes)";
}

}  // namespace
