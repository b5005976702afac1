// PG12.9 10.28.4: the pipeline primitives. __pipeline_memcpy_async(dst, src, size_and_align, zfill) copies the first
// size_and_align - zfill bytes and zero-fills the rest (every size 4, 8, 16 and every zfill 0..size), commit and
// wait_prior(N) complete at least the batches up to L - N, and __pipeline_arrive_on(bar) holds the barrier's phase
// until the copies before it completed. Each thread dumps its own shared window; the host model is the guide's loop.
#include <cuconform/cuconform.h>

#include <cuda_awbarrier_primitives.h>
#include <cuda_pipeline.h>

#include <vector>

#include "copy_cases.h"

namespace async_copy {
namespace {

// Each thread's window: 16 guard bytes, the 16-byte destination slot, 16 guard bytes.
constexpr unsigned kSlotWindow = 48;
constexpr unsigned kSlot = 16;

struct ZfillCase {
  unsigned size, zfill, src_offset;  // src_offset: a multiple of size
};

__host__ __device__ unsigned char guard_byte(unsigned t, unsigned i) {
  return static_cast<unsigned char>(0xC3 ^ (t + i));
}

// What the guide's loop leaves in the window of a thread with case c (before: guard bytes everywhere, and the
// complement of the would-be byte inside the slot, so a byte left untouched always differs).
unsigned char model_byte(const std::vector<unsigned char>& source, const ZfillCase& c, unsigned t, unsigned i) {
  if (i < kSlot || i >= kSlot + c.size) return guard_byte(t, i);
  const unsigned j = i - kSlot;
  return j < c.size - c.zfill ? source[c.src_offset + j] : 0;
}

__global__ void zfill_copies(const ZfillCase* cases, unsigned count, const unsigned char* source, unsigned char* dump) {
  extern __shared__ __align__(16) unsigned char windows[];  // blockDim.x windows
  const unsigned t = threadIdx.x;
  if (t >= count) return;
  const ZfillCase c = cases[t];
  unsigned char* const window = windows + t * kSlotWindow;
  for (unsigned i = 0; i < kSlotWindow; ++i) window[i] = guard_byte(t, i);
  for (unsigned j = 0; j < c.size; ++j) {
    window[kSlot + j] = static_cast<unsigned char>(j < c.size - c.zfill ? ~source[c.src_offset + j] : 0xFF);
  }
  __pipeline_memcpy_async(window + kSlot, source + c.src_offset, c.size, c.zfill);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  for (unsigned i = 0; i < kSlotWindow; ++i) dump[t * kSlotWindow + i] = window[i];
}

class PipelinePrimitives : public cuconform::GpuTest {};

RULE_F(PipelinePrimitives, MemcpyAsyncCopiesSizeMinusZfillBytesAndZeroFillsTheRest, "PG12.9 10.28.4.1",
       "__pipeline_memcpy_async(dst, src, size_and_align, zfill) with size_and_align 4, 8 or 16 and zfill <= "
       "size_and_align copies size_and_align - zfill bytes, sets the remaining zfill bytes to 0, touches nothing "
       "else") {
  std::vector<ZfillCase> cases;
  for (unsigned size : {4u, 8u, 16u}) {
    for (unsigned zfill = 0; zfill <= size; ++zfill) {
      for (unsigned offset : {0u, size, 4 * size, 64u + size}) cases.push_back({size, zfill, 64u * zfill + offset});
    }
  }
  const unsigned count = static_cast<unsigned>(cases.size());
  const std::vector<unsigned char> source = random_source();
  cuconform::DeviceBuffer<unsigned char> source_device(source), dump(std::size_t{count} * kSlotWindow);
  cuconform::DeviceBuffer<ZfillCase> cases_device(cases);
  cuconform::launch(zfill_copies, cuconform::Shape{dim3(1), dim3(count), count * kSlotWindow}, cases_device.get(),
                    count, source_device.get(), dump.get());
  const std::vector<unsigned char> bytes = dump.to_host();
  std::size_t failed = 0;
  ::testing::Message shown;
  for (unsigned t = 0; t < count; ++t) {
    for (unsigned i = 0; i < kSlotWindow; ++i) {
      const unsigned char expected = model_byte(source, cases[t], t, i);
      const unsigned char actual = bytes[t * kSlotWindow + i];
      if (actual != expected && failed++ < cuconform::kMismatchesShown) {
        shown << "\n  size " << cases[t].size << ", zfill " << cases[t].zfill << ", src offset " << cases[t].src_offset
              << ": window byte " << i << " (slot byte " << int(i) - int(kSlot) << "): GPU " << unsigned{actual}
              << ", host model " << unsigned{expected};
      }
    }
  }
  EXPECT_EQ(failed, 0u) << failed << " bytes differ over " << count << " copies" << shown;
}

// ---- commit and wait_prior ----

constexpr unsigned kBatches = 4;
constexpr unsigned kPrior = 2;  // after wait_prior(2) of batches 0..3, batches 0 and 1 are complete

__global__ void batches_then_wait_prior(const unsigned char* source, unsigned char* early, unsigned char* late) {
  extern __shared__ __align__(16) unsigned char slots[];  // kBatches slots per thread
  const unsigned t = threadIdx.x, n = blockDim.x;
  unsigned char* const mine = slots + t * kBatches * kSlot;
  for (unsigned k = 0; k < kBatches; ++k) {
    __pipeline_memcpy_async(mine + k * kSlot, source + (k * n + t) * kSlot, kSlot);
    __pipeline_commit();
  }
  __pipeline_wait_prior(kPrior);
  for (unsigned i = 0; i < (kBatches - kPrior) * kSlot; ++i) early[t * (kBatches - kPrior) * kSlot + i] = mine[i];
  __pipeline_wait_prior(0);
  for (unsigned i = 0; i < kBatches * kSlot; ++i) late[t * kBatches * kSlot + i] = mine[i];
}

RULE_F(PipelinePrimitives, WaitPriorCompletesAtLeastTheBatchesUpToLMinusN, "PG12.9 10.28.4.3",
       "after commits 0..L, __pipeline_wait_prior(N) returns once at least the batches up to L - N completed; "
       "__pipeline_wait_prior(0) once all did") {
  const unsigned n = 64;
  const std::vector<unsigned char> source = random_source();  // kBatches * n * kSlot = 4096 bytes used
  cuconform::DeviceBuffer<unsigned char> source_device(source), early(n * (kBatches - kPrior) * kSlot),
      late(n * kBatches * kSlot);
  cuconform::launch(batches_then_wait_prior, cuconform::Shape{dim3(1), dim3(n), n * kBatches * kSlot},
                    source_device.get(), early.get(), late.get());
  std::vector<unsigned char> expected_early, expected_late;
  for (unsigned t = 0; t < n; ++t) {
    for (unsigned k = 0; k < kBatches; ++k) {
      const auto from = source.begin() + (k * n + t) * kSlot;
      if (k < kBatches - kPrior) expected_early.insert(expected_early.end(), from, from + kSlot);
      expected_late.insert(expected_late.end(), from, from + kSlot);
    }
  }
  EXPECT_TRUE(cuconform::ElementsEqual(early.to_host(), expected_early))
      << "batches 0.." << kBatches - kPrior - 1 << " after wait_prior(" << kPrior << "); index = thread * "
      << (kBatches - kPrior) * kSlot << " + byte";
  EXPECT_TRUE(cuconform::ElementsEqual(late.to_host(), expected_late)) << "every batch after wait_prior(0)";
}

// ---- arrive_on ----

constexpr unsigned kSpinLimit = 1u << 22;

__global__ void copies_then_arrive_on(const unsigned char* source, unsigned* completed, unsigned char* seen) {
  extern __shared__ __align__(16) unsigned char slots[];  // one slot per thread
  __shared__ __mbarrier_t bar;
  const unsigned t = threadIdx.x, n = blockDim.x;
  if (t == 0) __mbarrier_init(&bar, n);
  __syncthreads();
  if (t % 4 == 0) __nanosleep(500);
  __pipeline_memcpy_async(slots + t * kSlot, source + t * kSlot, kSlot);
  __pipeline_arrive_on(&bar);
  const __mbarrier_token_t token = __mbarrier_arrive(&bar);
  bool done = false;
  for (unsigned spin = 0; spin < kSpinLimit && !done; ++spin) done = __mbarrier_test_wait(&bar, token);
  completed[t] = done;
  if (done) {
    const unsigned other = (t * 7 + 3) % n;  // another thread's copy
    for (unsigned i = 0; i < kSlot; ++i) seen[t * kSlot + i] = slots[other * kSlot + i];
  }
  __syncthreads();
  if (t == 0) __mbarrier_inval(&bar);
}

RULE_F(PipelinePrimitives, ArriveOnCompletesThePhaseOnlyAfterTheCopies, "PG12.9 10.28.4.4",
       "__pipeline_arrive_on(bar) adds a pending arrival that is removed when the copies before it complete: once "
       "the phase completes, every thread's copy is in shared memory") {
  const unsigned n = 128;
  const std::vector<unsigned char> source = random_source();
  cuconform::DeviceBuffer<unsigned char> source_device(source), seen(n * kSlot);
  cuconform::DeviceBuffer<unsigned> completed(n);
  cuconform::launch(copies_then_arrive_on, cuconform::Shape{dim3(1), dim3(n), n * kSlot}, source_device.get(),
                    completed.get(), seen.get());
  EXPECT_TRUE(cuconform::ElementsEqual(completed.to_host(), std::vector<unsigned>(n, 1u)))
      << "whether each thread saw the phase complete";
  std::vector<unsigned char> expected;
  for (unsigned t = 0; t < n; ++t) {
    const auto from = source.begin() + ((t * 7 + 3) % n) * kSlot;
    expected.insert(expected.end(), from, from + kSlot);
  }
  EXPECT_TRUE(cuconform::ElementsEqual(seen.to_host(), expected)) << "index = thread * 16 + byte";
}

}  // namespace
}  // namespace async_copy
