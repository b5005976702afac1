// What the memory-management rules share: a kernel that writes a known pattern, its host model, and RAII owners of
// memory pools (streams and events: cuconform/handles.h).
#pragma once

#include <cuconform/cuconform.h>
#include <cuconform/handles.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cuconform::memory_management {
namespace {

// p[i] = seed + i for every i < count.
__global__ void write_pattern(int* p, std::size_t count, int seed) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    p[i] = seed + static_cast<int>(i);
  }
}

// out[i] = in[i] + 1 for every i < count.
__global__ void increment_copy(const int* in, int* out, std::size_t count) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    out[i] = in[i] + 1;
  }
}

inline std::vector<int> pattern(std::size_t count, int seed) {
  std::vector<int> values(count);
  for (std::size_t i = 0; i < count; ++i) values[i] = seed + static_cast<int>(i);
  return values;
}

// Holds its stream for `ns` nanoseconds of the global timer: the work queued behind it starts late, so that work in
// another stream that does not wait for it runs first.
__global__ void hold_stream_for(unsigned long long ns) {
  unsigned long long start = 0, now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}

// Lazy loading (PG12.9 25.5.1) loads a kernel at its first launch, and the load may wait for the context's work, a
// hold included: a rule that needs work to run while another stream holds loads its kernels first, with
// cudaFuncGetAttributes() (PG12.9 25.3.2).
template <typename... Kernels>
void preload(Kernels... kernels) {
  cudaFuncAttributes attributes{};
  (CUDA_CHECK(cudaFuncGetAttributes(&attributes, reinterpret_cast<const void*>(kernels))), ...);
}

inline void launch_write_pattern(int* p, std::size_t count, int seed, cudaStream_t stream = nullptr) {
  write_pattern<<<64, 256, 0, stream>>>(p, count, seed);
  CUDA_CHECK(cudaGetLastError());
}

inline std::vector<int> read_back(const void* p, std::size_t count) {
  std::vector<int> values(count);
  CUDA_CHECK(cudaMemcpy(values.data(), p, count * sizeof(int), cudaMemcpyDefault));
  return values;
}

// Whether [a, a + bytes_a) and [b, b + bytes_b) share an address.
inline bool ranges_overlap(const void* a, std::size_t bytes_a, const void* b, std::size_t bytes_b) {
  auto begin_a = reinterpret_cast<std::uintptr_t>(a), begin_b = reinterpret_cast<std::uintptr_t>(b);
  return begin_a < begin_b + bytes_b && begin_b < begin_a + bytes_a;
}

// Pinned pool properties at a location (a device, or a host NUMA node, 15.6).
inline cudaMemPoolProps pool_props(cudaMemLocationType type, int id,
                                   cudaMemAllocationHandleType handles = cudaMemHandleTypeNone) {
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = type;
  props.location.id = id;
  props.handleTypes = handles;
  return props;
}

inline cudaMemPoolProps device_pool_props(int device, cudaMemAllocationHandleType handles = cudaMemHandleTypeNone) {
  return pool_props(cudaMemLocationTypeDevice, device, handles);
}

// An explicit pool (PG12.9 15.6), destroyed with its owner.
class Pool {
 public:
  explicit Pool(const cudaMemPoolProps& props) { CUDA_CHECK(cudaMemPoolCreate(&pool_, &props)); }
  explicit Pool(int device) : Pool(device_pool_props(device)) {}
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;
  ~Pool() { cudaMemPoolDestroy(pool_); }
  operator cudaMemPool_t() const { return pool_; }

  unsigned long long attribute(cudaMemPoolAttr attr) const {
    unsigned long long value = 0;  // the 64-bit attributes (thresholds, statistics)
    CUDA_CHECK(cudaMemPoolGetAttribute(pool_, attr, &value));
    return value;
  }
  void set_attribute(cudaMemPoolAttr attr, unsigned long long value) {
    CUDA_CHECK(cudaMemPoolSetAttribute(pool_, attr, &value));
  }
  // The reuse policies are int attributes.
  void set_policy(cudaMemPoolAttr attr, bool enabled) {
    int value = enabled ? 1 : 0;
    CUDA_CHECK(cudaMemPoolSetAttribute(pool_, attr, &value));
  }

 private:
  cudaMemPool_t pool_ = nullptr;
};

}  // namespace

// Rules of the stream-ordered allocator: skip where the device has none (PG12.9 15.2).
class StreamOrderedAllocatorTest : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped()) return;
    REQUIRE_ATTRIBUTE(cudaDevAttrMemoryPoolsSupported, "the stream-ordered memory allocator");
  }
};

}  // namespace cuconform::memory_management
