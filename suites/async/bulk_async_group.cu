// PG12.9 10.29.1, "TMA write and sync": a bulk-asynchronous copy from shared to global memory completes through a
// bulk async-group of the initiating thread, which "can wait for all operations in this group to have completed
// reading from shared memory (cp.async.bulk.wait_group.read) or to have completed writing to global memory, making the
// writes visible to the initiating thread" (cp.async.bulk.wait_group), N being how many of the most recent groups may
// still be pending (the PTX ISA's cp.async.bulk.wait_group, to which the section refers).
//
// Three copies of 256 bytes, each its own group. After wait_group.read N the sources of the oldest 3 - N groups are
// overwritten at once; after the final wait every destination must hold the bytes the source held when its copy was
// issued. After a plain wait_group 0 the initiating thread reads the destinations back itself.
#include <cuconform/cuconform.h>

#include <cuda/ptx>

#include <cstdint>
#include <string>
#include <vector>

#include "tma_common.h"

namespace {

namespace ptx = cuda::ptx;

constexpr unsigned kGroups = 3;
constexpr unsigned kBytes = 256;  // per copy: a multiple of 16 (Table 10)

__host__ __device__ unsigned char original_byte(unsigned group, unsigned i) {
  return static_cast<unsigned char>(0x11 * (group + 1) + 7 * i);
}

// Issues the three copies (each committed as its own group) from thread 0, then waits for the groups as `Prior` says:
// wait_group.read<Prior> followed by overwriting the sources it released, or (Prior < 0) wait_group<0> followed by
// reading the destinations into `read_back`.
template <int Prior>
__global__ void copy_in_groups(unsigned char* destination, unsigned char* read_back) {
#if CUCONFORM_SM90_COMPILED
  __shared__ alignas(16) unsigned char source[kGroups][kBytes];
  for (unsigned i = threadIdx.x; i < kGroups * kBytes; i += blockDim.x) {
    source[i / kBytes][i % kBytes] = original_byte(i / kBytes, i % kBytes);
  }
  ptx::fence_proxy_async(ptx::space_shared);  // the generic writes before the async proxy's reads
  __syncthreads();
  if (threadIdx.x != 0) return;
  for (unsigned g = 0; g < kGroups; ++g) {
    // The size by value: the wrapper takes it by reference, which device code cannot bind to kBytes.
    ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, destination + g * kBytes, source[g], unsigned{kBytes});
    ptx::cp_async_bulk_commit_group();
  }
  if constexpr (Prior >= 0) {
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<Prior>{});
    // The oldest kGroups - Prior groups have finished reading their sources: overwrite them now.
    for (unsigned g = 0; g < kGroups - Prior; ++g) {
      for (unsigned i = 0; i < kBytes; ++i) source[g][i] = static_cast<unsigned char>(~original_byte(g, i));
    }
    ptx::cp_async_bulk_wait_group(ptx::n32_t<0>{});
  } else {
    ptx::cp_async_bulk_wait_group(ptx::n32_t<0>{});
    // 10.29.1: complete writing to global memory, "making the writes visible to the initiating thread".
    for (unsigned i = 0; i < kGroups * kBytes; ++i) read_back[i] = destination[i];
  }
#else
  (void)destination, (void)read_back;
#endif
}

std::vector<unsigned char> originals() {
  std::vector<unsigned char> bytes(kGroups * kBytes);
  for (unsigned i = 0; i < bytes.size(); ++i) bytes[i] = original_byte(i / kBytes, i % kBytes);
  return bytes;
}

std::string where(std::size_t i) {
  return "group " + std::to_string(i / kBytes) + ", byte " + std::to_string(i % kBytes);
}

class BulkAsyncGroup : public cuconform::GpuTestWithParam<int> {
 protected:
  void SetUp() override {
    cuconform::GpuTestWithParam<int>::SetUp();
    if (IsSkipped()) return;
    REQUIRE_CC(9, 0);
    REQUIRE_DEVICE_CODE(9, 0);
  }
};

RULE_P(BulkAsyncGroup, WaitGroupReadReleasesTheSourcesOfAllButTheNewestNGroups, "PG12.9 10.29.1",
       "after cp.async.bulk.wait_group.read N the bulk copies of all but the N most recent bulk async-groups have "
       "finished reading shared memory: overwriting their sources then changes nothing they write") {
  const int prior = GetParam();
  cuconform::DeviceBuffer<unsigned char> destination(kGroups * kBytes), unused(1);
  switch (prior) {
    case 0: cuconform::launch(copy_in_groups<0>, dim3(1), dim3(128), destination.get(), unused.get()); break;
    case 1: cuconform::launch(copy_in_groups<1>, dim3(1), dim3(128), destination.get(), unused.get()); break;
    case 2: cuconform::launch(copy_in_groups<2>, dim3(1), dim3(128), destination.get(), unused.get()); break;
    default: FAIL() << "no kernel for N = " << prior;
  }
  EXPECT_TRUE(cuconform::ElementsEqual(destination.to_host(), originals(), where))
      << "global bytes after wait_group.read " << prior << ", overwriting the sources of groups 0 to "
      << kGroups - prior - 1 << ", and wait_group 0";
}

INSTANTIATE_TEST_SUITE_P(Prior, BulkAsyncGroup, ::testing::Values(0, 1, 2),
                         [](const ::testing::TestParamInfo<int>& info) { return "N" + std::to_string(info.param); });

class BulkAsyncGroupWrites : public cuconform::GpuTest {
 protected:
  void SetUp() override {
    cuconform::GpuTest::SetUp();
    if (IsSkipped()) return;
    REQUIRE_CC(9, 0);
    REQUIRE_DEVICE_CODE(9, 0);
  }
};

RULE_F(BulkAsyncGroupWrites, WaitGroupMakesTheWritesVisibleToTheInitiatingThread, "PG12.9 10.29.1",
       "after cp.async.bulk.wait_group 0 the bulk copies to global memory have completed writing, and the "
       "initiating thread reads the bytes they wrote") {
  cuconform::DeviceBuffer<unsigned char> destination(kGroups * kBytes), read_back(kGroups * kBytes);
  cuconform::launch(copy_in_groups<-1>, dim3(1), dim3(128), destination.get(), read_back.get());
  EXPECT_TRUE(cuconform::ElementsEqual(read_back.to_host(), originals(), where))
      << "what the initiating thread read from global memory right after wait_group 0";
  EXPECT_TRUE(cuconform::ElementsEqual(destination.to_host(), originals(), where)) << "global bytes after the kernel";
}

}  // namespace
