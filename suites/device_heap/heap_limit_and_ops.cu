// PG12.9 10.36 and 10.36.1: device memcpy and memset, byte for byte over sizes and misalignments, and the heap size
// limit: 8 MiB by default, settable with cudaDeviceSetLimit(cudaLimitMallocHeapSize) before a module using malloc
// is loaded, and fixed after that.
#include <cuconform/cuconform.h>

#include <tuple>
#include <vector>

namespace {

// ---- memcpy and memset in device code ----

constexpr unsigned kRegion = 128;  // each case owns kRegion bytes of dst; src is a shared random array
constexpr unsigned kMaxOps = 72;   // sizes 0..kMaxOps - 1

struct OpCase {
  unsigned size, dst_offset, src_offset;
};

__host__ __device__ unsigned char background(unsigned k, unsigned i) {
  return static_cast<unsigned char>(0x5A ^ (k * 7 + i));
}
__host__ __device__ unsigned char source_byte(unsigned i) { return static_cast<unsigned char>(i * 151u + 7u); }
__host__ __device__ int memset_value(unsigned k) { return static_cast<int>(0x100 * (k % 5) + (k * 29u) % 256); }

// Thread k runs case k: memcpy into region k of `copied`, memset into region k of `set`.
__global__ void copy_and_set(const OpCase* cases, unsigned count, const unsigned char* source, unsigned char* copied,
                             unsigned char* set) {
  const unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  const OpCase c = cases[k];
  unsigned char* const copy_region = copied + std::size_t{k} * kRegion;
  unsigned char* const set_region = set + std::size_t{k} * kRegion;
  for (unsigned i = 0; i < kRegion; ++i) copy_region[i] = set_region[i] = background(k, i);
  void* const copy_result = memcpy(copy_region + c.dst_offset, source + c.src_offset, c.size);
  void* const set_result = memset(set_region + c.dst_offset, memset_value(k), c.size);
  // The return values are dest and ptr: mark a wrong one by flipping the region's last byte.
  if (copy_result != copy_region + c.dst_offset) copy_region[kRegion - 1] ^= 0xFF;
  if (set_result != set_region + c.dst_offset) set_region[kRegion - 1] ^= 0xFF;
}

class DeviceMemoryOps : public cuconform::GpuTest {};

RULE_F(DeviceMemoryOps, MemcpyAndMemsetWriteExactlyTheirBytes, "PG12.9 10.36",
       "device memcpy(dest, src, size) copies size bytes; memset(ptr, value, size) sets size bytes to value "
       "interpreted as unsigned char; nothing outside changes, for every size and misalignment") {
  std::vector<OpCase> cases;
  for (unsigned size = 0; size < kMaxOps; ++size) {
    for (unsigned dst = 0; dst < 16; ++dst) {
      for (unsigned src = 0; src < 16; src += (cuconform::full_profile() ? 1 : 5)) cases.push_back({size, dst, src});
    }
  }
  const unsigned count = static_cast<unsigned>(cases.size());
  std::vector<unsigned char> source(kRegion);
  for (unsigned i = 0; i < kRegion; ++i) source[i] = source_byte(i);
  cuconform::DeviceBuffer<OpCase> cases_device(cases);
  cuconform::DeviceBuffer<unsigned char> source_device(source), copied(std::size_t{count} * kRegion),
      set(std::size_t{count} * kRegion);
  cuconform::launch(copy_and_set, cuconform::blocks_for(count, 128), dim3(128), cases_device.get(), count,
                    source_device.get(), copied.get(), set.get());
  const std::vector<unsigned char> copy_bytes = copied.to_host(), set_bytes = set.to_host();
  std::size_t failed = 0;
  ::testing::Message shown;
  for (unsigned k = 0; k < count; ++k) {
    const OpCase& c = cases[k];
    for (unsigned i = 0; i < kRegion; ++i) {
      const bool inside = i >= c.dst_offset && i < c.dst_offset + c.size;
      const unsigned char want_copy = inside ? source[c.src_offset + i - c.dst_offset] : background(k, i);
      const unsigned char want_set = inside ? static_cast<unsigned char>(memset_value(k)) : background(k, i);
      for (const auto& [what, actual, expected] : {std::tuple{"memcpy", copy_bytes[k * kRegion + i], want_copy},
                                                   std::tuple{"memset", set_bytes[k * kRegion + i], want_set}}) {
        if (actual != expected && failed++ < cuconform::kMismatchesShown) {
          shown << "\n  " << what << " size " << c.size << ", dst offset " << c.dst_offset << ", src offset "
                << c.src_offset << ", memset value " << memset_value(k) << ": region byte " << i << ": GPU "
                << unsigned{actual} << ", host model " << unsigned{expected};
        }
      }
    }
  }
  EXPECT_EQ(failed, 0u) << failed << " bytes differ over " << count << " cases" << shown;
}

// ---- the heap size limit ----

__global__ void malloc_once(std::size_t size, unsigned long long* pointer) {
  void* const block = malloc(size);
  *pointer = reinterpret_cast<unsigned long long>(block);
  free(block);
}

constexpr std::size_t kMiB = std::size_t{1} << 20;

// The limit belongs to the context and is fixed once a module using malloc is loaded, so the rule starts from a
// fresh context (cudaDeviceReset, in a process of its own, so no other rule's work is in it) and resets again at the
// end.
class DeviceHeapLimit : public cuconform::IsolatedGpuTest {
 protected:
  void TearDown() override { cudaDeviceReset(); }
};

RULE_F(DeviceHeapLimit, DefaultIsEightMiBSettableBeforeModuleLoadFixedAfter, "PG12.9 10.36.1",
       "a fresh context reports a heap of eight megabytes; cudaDeviceSetLimit(cudaLimitMallocHeapSize) before a "
       "module using malloc is loaded is reported back by cudaDeviceGetLimit and grants at least that size; once "
       "a module is loaded the heap size cannot be changed") {
  CUDA_ASSERT(cudaDeviceReset());
  std::size_t limit = 0;
  CUDA_ASSERT(cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize));
  EXPECT_EQ(limit, 8 * kMiB) << "default heap size of a fresh context";

  CUDA_ASSERT(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64 * kMiB));
  CUDA_ASSERT(cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize));
  EXPECT_EQ(limit, 64 * kMiB) << "cudaDeviceGetLimit returns the requested heap size";
  {
    cuconform::DeviceBuffer<unsigned long long> pointer(1);
    cuconform::launch(malloc_once, dim3(1), dim3(1), std::size_t{40} * kMiB, pointer.get());
    EXPECT_NE(pointer.value_at(0), 0u) << "malloc(40 MiB) from a heap of at least 64 MiB returned NULL";

    // The module is loaded now: a larger heap must not take effect.
    const cudaError_t resize = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 512 * kMiB);
    RecordProperty("set_limit_after_load", cuconform::describe(resize));
    (void)cudaGetLastError();
    cuconform::launch(malloc_once, dim3(1), dim3(1), std::size_t{300} * kMiB, pointer.get());
    EXPECT_EQ(pointer.value_at(0), 0u) << "malloc(300 MiB) succeeded after resizing the heap to 512 MiB once a "
                                       << "module was loaded (cudaDeviceSetLimit returned "
                                       << cuconform::describe(resize) << ")";
  }
}

}  // namespace
