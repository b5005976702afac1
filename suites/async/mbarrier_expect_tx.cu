// PG12.9 10.29.1, "TMA read": the thread that starts a bulk copy tells the barrier how many bytes (transactions) to
// expect with mbarrier.expect_tx; "If multiple threads update the transaction count, the expected transaction will be
// the sum of the updates. The barrier will only flip once all threads have arrived and all bytes have arrived."
//
// Here the expected bytes are set with mbarrier.expect_tx alone (no arrival), so that arrivals and bytes are two
// separate things: every arrival is made first, and the phase must stay incomplete until the bytes the barrier
// expects have been copied; with two threads each expecting a part, one copy of the first part is not enough.
#include <cuconform/cuconform.h>

#include <cuda/ptx>

#include <cstdint>
#include <vector>

#include "tma_common.h"

namespace {

namespace ptx = cuda::ptx;

constexpr unsigned kFirstBytes = 32, kSecondBytes = 48;  // multiples of 16 (Table 10)
// Polls of the incomplete phase, each after a pause of 1 microsecond: long enough for a bulk copy of a few bytes
// that has been issued to have landed.
constexpr unsigned kPolls = 256;

__host__ __device__ unsigned char source_byte(unsigned i) { return static_cast<unsigned char>(0xA0 ^ (i * 13)); }

struct Observations {
  unsigned complete_before_copy;  // polls that saw the phase complete before any byte was copied
  unsigned complete_after_first;  // polls that saw it complete after only the first part was copied
  unsigned completed;             // the phase completed once every byte had been copied
  unsigned char bytes[kFirstBytes + kSecondBytes];
};

#if CUCONFORM_SM90_COMPILED && defined(__CUDACC__)
__device__ unsigned count_complete_polls(std::uint64_t* bar) {
  unsigned complete = 0;
  for (unsigned p = 0; p < kPolls; ++p) {
    __nanosleep(1000);
    complete += ptx::mbarrier_test_wait_parity(bar, 0) ? 1u : 0u;
  }
  return complete;
}
#endif

// `two_threads`: threads 0 and 1 expect the first and the second part; otherwise thread 0 expects both. Thread 0 then
// arrives (the only arrival the barrier expects), polls, copies the first part, polls (with two expecting threads),
// copies the second part and waits.
__global__ void expect_then_arrive(const unsigned char* source, bool two_threads, Observations* out) {
#if CUCONFORM_SM90_COMPILED
  __shared__ alignas(16) unsigned char destination[kFirstBytes + kSecondBytes];
  __shared__ std::uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (two_threads) {
    if (threadIdx.x < 2) {
      ptx::mbarrier_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &bar,
                              threadIdx.x == 0 ? unsigned{kFirstBytes} : unsigned{kSecondBytes});
    }
  } else if (threadIdx.x == 0) {
    ptx::mbarrier_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &bar, kFirstBytes + kSecondBytes);
  }
  __syncthreads();  // every expect_tx before the arrival
  if (threadIdx.x != 0) return;
  (void)ptx::mbarrier_arrive(&bar);  // every arrival the barrier expects
  out->complete_before_copy = count_complete_polls(&bar);
  // Sizes by value: the wrapper takes them by reference, which device code cannot bind to the constants.
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, destination, source, unsigned{kFirstBytes}, &bar);
  out->complete_after_first = two_threads ? count_complete_polls(&bar) : 0u;
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, destination + kFirstBytes, source + kFirstBytes,
                     unsigned{kSecondBytes}, &bar);
  const bool done = tma::bounded_wait_parity(&bar, 0);
  out->completed = done;
  if (done) {
    for (unsigned i = 0; i < kFirstBytes + kSecondBytes; ++i) out->bytes[i] = destination[i];
  }
#else
  (void)source, (void)two_threads, (void)out;
#endif
}

class MbarrierTransactionCount : public cuconform::GpuTest {
 protected:
  void SetUp() override {
    cuconform::GpuTest::SetUp();
    if (IsSkipped()) return;
    REQUIRE_CC(9, 0);
    REQUIRE_DEVICE_CODE(9, 0);
  }

  Observations run(bool two_threads) {
    std::vector<unsigned char> bytes(kFirstBytes + kSecondBytes);
    for (unsigned i = 0; i < bytes.size(); ++i) bytes[i] = source_byte(i);
    cuconform::DeviceBuffer<unsigned char> source(bytes);
    cuconform::DeviceBuffer<Observations> out(1);
    cuconform::launch(expect_then_arrive, dim3(1), dim3(64), static_cast<const unsigned char*>(source.get()),
                      two_threads, out.get());
    const Observations o = out.value_at(0);
    EXPECT_EQ(o.completed, 1u) << "the phase never completed after every byte had been copied";
    if (o.completed == 1) {
      EXPECT_TRUE(cuconform::ElementsEqual(std::vector<unsigned char>(o.bytes, o.bytes + bytes.size()), bytes))
          << "shared bytes after the phase completed";
    }
    return o;
  }
};

RULE_F(MbarrierTransactionCount, PhaseCompletesOnlyOnceEveryArrivalAndEveryByteHasArrived, "PG12.9 10.29.1",
       "a barrier whose expected bytes were set with mbarrier.expect_tx does not flip when every thread has arrived "
       "but the bytes have not; it flips once the bulk copies have delivered them") {
  const Observations o = run(false);
  EXPECT_EQ(o.complete_before_copy, 0u)
      << "polls (of " << kPolls << ", 1 us apart) that saw the phase complete with every arrival made and none of the "
      << kFirstBytes + kSecondBytes << " expected bytes copied";
}

RULE_F(MbarrierTransactionCount, ExpectedBytesOfSeveralThreadsAdd, "PG12.9 10.29.1",
       "when several threads update the transaction count (mbarrier.expect_tx of 32 and of 48 bytes), the barrier "
       "expects their sum: a copy of the first 32 bytes does not complete the phase, the remaining 48 do") {
  const Observations o = run(true);
  EXPECT_EQ(o.complete_before_copy, 0u) << "polls that saw the phase complete before any byte was copied";
  EXPECT_EQ(o.complete_after_first, 0u) << "polls (of " << kPolls
                                        << ", 1 us apart) that saw the phase complete after only " << kFirstBytes
                                        << " of " << kFirstBytes + kSecondBytes << " expected bytes were copied";
}

}  // namespace
