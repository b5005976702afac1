// PG12.9 10.29.1: one-dimensional bulk-asynchronous copies (cp.async.bulk, CC 9.0). Global -> shared completes on a
// shared memory barrier through its transaction count (the issuing thread arrives with expect_tx; with two issuers the
// expected transactions are the sum); shared -> global completes through a bulk async-group. Every size that is a
// multiple of 16 and every 16-byte aligned offset, with guard bytes around the destination; the host checks each byte.
#include <cuconform/build_targets.h>
#include <cuconform/cuconform.h>

#include <cuda/barrier>
#include <cuda/ptx>

#include <string>
#include <vector>

#include "shared_object.h"

namespace {

namespace ptx = cuda::ptx;
using BlockBarrier = cuda::barrier<cuda::thread_scope_block>;

constexpr unsigned kGuard = 16;
constexpr unsigned kSharedOffsets = 4;  // shared destination offsets 0, 16, 32, 48
constexpr unsigned kGlobalOffsets = 8;  // global offsets 0, 16, ..., 112
constexpr unsigned kSourceBytes = 8192 + 128;

struct BulkCase {
  unsigned size, global_offset, shared_offset;  // multiples of 16 (Table 10)
};

std::vector<BulkCase> bulk_cases() {
  const unsigned largest = cuconform::full_profile() ? 4096 : 512;
  std::vector<BulkCase> cases;
  for (unsigned size = 16; size <= largest; size += 16) {
    for (unsigned g = 0; g < kGlobalOffsets; ++g) {
      for (unsigned s = 0; s < kSharedOffsets; ++s) cases.push_back({size, 16 * g, 16 * s});
    }
  }
  return cases;
}

unsigned window_for(unsigned largest) { return kGuard + 16 * kSharedOffsets + largest + kGuard; }

__host__ __device__ unsigned char source_byte(unsigned i) { return static_cast<unsigned char>((i * 0x9Du) ^ (i >> 8)); }
// Window byte i of case c before the copy: the complement of the byte the copy would put there.
__host__ __device__ unsigned char sentinel(const BulkCase& c, unsigned i) {
  return static_cast<unsigned char>(~source_byte(i + c.global_offset + kSourceBytes - kGuard - c.shared_offset));
}
__host__ __device__ bool inside(const BulkCase& c, unsigned i) {
  return i >= kGuard + c.shared_offset && i < kGuard + c.shared_offset + c.size;
}

enum class Issuers { OneThreadMemcpyAsync, OneThreadPtx, TwoThreadsPtx };

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define CUCONFORM_TMA_COMPILED 0
#else
#define CUCONFORM_TMA_COMPILED 1
#endif

__global__ void global_to_shared(Issuers issuers, const BulkCase* cases, const unsigned char* source, unsigned window,
                                 unsigned char* dump) {
#if CUCONFORM_TMA_COMPILED
  extern __shared__ __align__(128) unsigned char shared[];
  CUCONFORM_SHARED_OBJECT(BlockBarrier, bar);
  const BulkCase c = cases[blockIdx.x];
  const unsigned t = threadIdx.x;
  for (unsigned i = t; i < window; i += blockDim.x) shared[i] = sentinel(c, i);
  ptx::fence_proxy_async(ptx::space_shared);  // the sentinels before the async proxy's writes
  if (t == 0) init(&bar, blockDim.x);
  ptx::fence_proxy_async(ptx::space_shared);  // the initialized barrier visible to the bulk copies (10.29.1)
  __syncthreads();
  unsigned char* const dst = shared + kGuard + c.shared_offset;
  const unsigned char* const src = source + c.global_offset;
  BlockBarrier::arrival_token token;
  if (issuers == Issuers::OneThreadMemcpyAsync) {
    if (t == 0) cuda::memcpy_async(dst, src, cuda::aligned_size_t<16>(c.size), bar);
    token = bar.arrive();
  } else if (issuers == Issuers::OneThreadPtx) {
    if (t == 0) {
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, dst, src, c.size,
                         cuda::device::barrier_native_handle(bar));
      token = cuda::device::barrier_arrive_tx(bar, 1, c.size);
    } else {
      token = bar.arrive();
    }
  } else {  // threads 0 and 32 each copy part and each add their part's bytes to the transaction count
    const unsigned first = c.size / 32 * 16;  // a multiple of 16, possibly 0
    const unsigned part = t == 0 ? first : c.size - first, at = t == 0 ? 0 : first;
    if ((t == 0 || t == 32) && part > 0) {
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, dst + at, src + at, part,
                         cuda::device::barrier_native_handle(bar));
      token = cuda::device::barrier_arrive_tx(bar, 1, part);
    } else {
      token = bar.arrive();
    }
  }
  bar.wait(std::move(token));
  for (unsigned i = t; i < window; i += blockDim.x) dump[std::size_t{blockIdx.x} * window + i] = shared[i];
#endif
}

__global__ void shared_to_global(const BulkCase* cases, const unsigned char* source, unsigned window,
                                 unsigned char* destination) {
#if CUCONFORM_TMA_COMPILED
  extern __shared__ __align__(128) unsigned char shared[];
  const BulkCase c = cases[blockIdx.x];
  const unsigned t = threadIdx.x;
  // The shared source: byte j of the copy is source_byte(j + global_offset), at shared_offset.
  for (unsigned j = t; j < c.size; j += blockDim.x) shared[c.shared_offset + j] = source[j + c.global_offset];
  ptx::fence_proxy_async(ptx::space_shared);  // the writes visible to the async proxy (10.29.1, step 5)
  __syncthreads();
  if (t == 0) {
    unsigned char* const dst = destination + std::size_t{blockIdx.x} * window + kGuard + c.shared_offset;
    ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, dst, shared + c.shared_offset, c.size);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group(ptx::n32_t<0>());  // the writes to global memory complete
  }
  (void)source;
#endif
}

// As shared_to_global, but the source reaches shared memory as late as it can: the block first fills it with the
// complement of each byte, then thread 0 alone overwrites it, last address first (the bytes the copy reads first are
// the ones written last), and issues the copy right after its fence.proxy.async, with no barrier between that would
// give the generic stores time to land. Without the fence the async proxy may read the complements.
__global__ void shared_to_global_by_the_writer(const BulkCase* cases, const unsigned char* source, unsigned window,
                                               unsigned char* destination) {
#if CUCONFORM_TMA_COMPILED
  extern __shared__ __align__(128) unsigned char shared[];
  const BulkCase c = cases[blockIdx.x];
  const unsigned t = threadIdx.x;
  for (unsigned j = t; j < c.size; j += blockDim.x) {
    shared[c.shared_offset + j] = static_cast<unsigned char>(~source[j + c.global_offset]);
  }
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  if (t == 0) {
    for (unsigned j = c.size; j-- > 0;) shared[c.shared_offset + j] = source[j + c.global_offset];
    ptx::fence_proxy_async(ptx::space_shared);  // the writes visible to the async proxy (10.29.1, step 5)
    unsigned char* const dst = destination + std::size_t{blockIdx.x} * window + kGuard + c.shared_offset;
    ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, dst, shared + c.shared_offset, c.size);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group(ptx::n32_t<0>());
  }
#endif
}

class BulkCopy : public cuconform::GpuTestWithParam<Issuers> {};

std::vector<unsigned char> source_bytes() {
  std::vector<unsigned char> bytes(kSourceBytes);
  for (unsigned i = 0; i < kSourceBytes; ++i) bytes[i] = source_byte(i);
  return bytes;
}

::testing::AssertionResult windows_match(const std::vector<BulkCase>& cases, unsigned window,
                                         const std::vector<unsigned char>& bytes) {
  std::size_t failed = 0;
  ::testing::Message shown;
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const BulkCase& c = cases[k];
    for (unsigned i = 0; i < window; ++i) {
      const unsigned char expected =
          inside(c, i) ? source_byte(i - kGuard - c.shared_offset + c.global_offset) : sentinel(c, i);
      const unsigned char actual = bytes[k * window + i];
      if (actual != expected && failed++ < cuconform::kMismatchesShown) {
        shown << "\n  size " << c.size << ", global offset " << c.global_offset << ", shared offset " << c.shared_offset
              << ": window byte " << i << (inside(c, i) ? " (inside)" : " (outside)") << ": GPU " << unsigned{actual}
              << ", host model " << unsigned{expected};
      }
    }
  }
  if (failed == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << failed << " bytes differ over " << cases.size() << " copies" << shown;
}

RULE_P(BulkCopy, GlobalToSharedCompletesOnTheBarrierTransactionCount, "PG12.9 10.29.1",
       "a bulk copy global -> shared of a multiple of 16 bytes between 16-byte aligned addresses, completed by "
       "a barrier whose issuing threads arrive with expect_tx (the sum of their byte counts), leaves exactly the "
       "copied bytes once the barrier flips") {
  REQUIRE_CC(9, 0);
  REQUIRE_DEVICE_CODE(9, 0);
  const std::vector<BulkCase> cases = bulk_cases();
  const unsigned window = window_for(cases.back().size);
  cuconform::DeviceBuffer<BulkCase> cases_device(cases);
  cuconform::DeviceBuffer<unsigned char> source(source_bytes()), dump(std::size_t{window} * cases.size());
  cuconform::launch(global_to_shared, cuconform::Shape{dim3(static_cast<unsigned>(cases.size())), dim3(64), window},
                    GetParam(), cases_device.get(), source.get(), window, dump.get());
  EXPECT_TRUE(windows_match(cases, window, dump.to_host()));
}

INSTANTIATE_TEST_SUITE_P(Issuers, BulkCopy,
                         ::testing::Values(Issuers::OneThreadMemcpyAsync, Issuers::OneThreadPtx,
                                           Issuers::TwoThreadsPtx),
                         [](const ::testing::TestParamInfo<Issuers>& info) {
                           switch (info.param) {
                             case Issuers::OneThreadMemcpyAsync: return std::string("OneThreadMemcpyAsync");
                             case Issuers::OneThreadPtx: return std::string("OneThreadPtx");
                             default: return std::string("TwoThreadsPtx");
                           }
                         });

class BulkCopyToGlobal : public cuconform::GpuTest {
 protected:
  // Every case's window of global memory, filled with its sentinel, then copied into from shared memory by `kernel`
  // (one block per case): whether each window holds exactly the case's bytes and the sentinel around them.
  template <typename Kernel>
  ::testing::AssertionResult copies_each_window(Kernel kernel) {
    const std::vector<BulkCase> cases = bulk_cases();
    const unsigned window = window_for(cases.back().size);
    std::vector<unsigned char> before(std::size_t{window} * cases.size());
    for (std::size_t k = 0; k < cases.size(); ++k) {
      for (unsigned i = 0; i < window; ++i) before[k * window + i] = sentinel(cases[k], i);
    }
    cuconform::DeviceBuffer<BulkCase> cases_device(cases);
    cuconform::DeviceBuffer<unsigned char> source(source_bytes()), destination(before);
    cuconform::launch(kernel, cuconform::Shape{dim3(static_cast<unsigned>(cases.size())), dim3(64), window},
                      cases_device.get(), source.get(), window, destination.get());
    return windows_match(cases, window, destination.to_host());
  }
};

RULE_F(BulkCopyToGlobal, SharedToGlobalCompletesThroughTheBulkAsyncGroup, "PG12.9 10.29.1",
       "a bulk copy shared -> global, committed to a bulk async-group and waited for with "
       "cp.async.bulk.wait_group 0, writes exactly its bytes to global memory") {
  REQUIRE_CC(9, 0);
  REQUIRE_DEVICE_CODE(9, 0);
  EXPECT_TRUE(copies_each_window(shared_to_global));
}

RULE_F(BulkCopyToGlobal, ReadsTheIssuersOwnStoresAfterTheProxyFence, "PG12.9 10.29.1",
       "a bulk copy shared -> global issued by the thread that has just written its shared source, right after "
       "fence.proxy.async and with no barrier between, reads those writes, not what the source held before") {
  REQUIRE_CC(9, 0);
  REQUIRE_DEVICE_CODE(9, 0);
  EXPECT_TRUE(copies_each_window(shared_to_global_by_the_writer));
}

}  // namespace
