// PG12.9 10.29.1 ("Barrier wait"): mbarrier.try_wait "can either return true, indicating that the wait is over, or
// return false, which may mean that the wait timed out"; the guide's TMA examples (10.29.1, 10.30.2) wait with its
// token and its parity form (cuda::ptx::mbarrier_try_wait, mbarrier_try_wait_parity). Two participants, threads 0
// and 32, over six phases: thread 0 arrives and asks try_wait while thread 32 cannot have arrived (it waits for
// thread 0's flag), so the answer must be false; then thread 0 releases thread 32 and retries, boundedly, until
// true, and reads what thread 32 wrote before its arrival. The parity form is also asked about the preceding phase,
// which has completed. The GPU records each answer; the host judges.
//
// The flag lives in global memory on purpose: thread 32 polls it while thread 0 stores it, two strong accesses
// (ld.acquire / st.release at CTA scope: LD.E.STRONG.SM and MEMBAR.ALL.CTA + ST.E.STRONG.SM in the sm_90 SASS), which
// the PTX memory model does not count as a data race (morally strong); racecheck checks shared memory only. Each phase
// has a payload word of its own, also for racecheck: with one word for all phases, thread 0's read of phase p and
// thread 32's write of phase p + 1 are ordered only through that flag (thread 0's release store of phase p + 1 follows
// its read, thread 32 writes after its acquire load sees it), which racecheck does not model: it reported the pair as
// a "Potential WAR hazard" (H200, 2026-11-29, docs/results/racecheck-2026-11-29.md). Now thread 32 writes each word
// once, before its arrival, and thread 0 reads it once, after its successful try_wait: the mbarrier ordering the rule
// is about, which racecheck still checks.
#include <cuconform/cuconform.h>

#include <cuda/atomic>
#include <cuda/ptx>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "tma_common.h"

namespace {

namespace ptx = cuda::ptx;

constexpr unsigned kPhases = 6;

enum Observation : unsigned {
  kBeforePartner,    // try_wait before thread 32 may arrive: false
  kAfterRetries,     // the bounded retry loop ended with true
  kPayload,          // what thread 32 wrote before arriving
  kPrecedingParity,  // parity form only: try_wait_parity(parity of the preceding phase) before thread 32 arrives
  kPartnerReleased,  // thread 32 saw the flag for this phase (bounded spin)
  kObservations
};

enum class Form : unsigned { kToken, kParity };

void PrintTo(Form form, std::ostream* out) { *out << (form == Form::kToken ? "token" : "parity"); }

__host__ __device__ constexpr unsigned payload_of(unsigned phase) { return 0xA5000000u + phase * 7919u; }

#if CUCONFORM_SM90_COMPILED
__device__ bool try_wait(Form form, std::uint64_t* bar, std::uint64_t token, unsigned parity) {
  return form == Form::kToken ? ptx::mbarrier_try_wait(bar, token) : ptx::mbarrier_try_wait_parity(bar, parity);
}
#endif

__global__ void try_wait_phases(Form form, unsigned* out, unsigned* flag) {
#if CUCONFORM_SM90_COMPILED
  __shared__ std::uint64_t bar;
  __shared__ unsigned payload[kPhases];  // one word per phase: no word is reused across phases
  const unsigned t = threadIdx.x;
  if (t == 0) {
    ptx::mbarrier_init(&bar, 2);
    *flag = 0;
    for (unsigned phase = 0; phase < kPhases; ++phase) payload[phase] = 0;
  }
  __syncthreads();
  cuda::atomic_ref<unsigned, cuda::thread_scope_block> release_flag(*flag);
  for (unsigned phase = 0; phase < kPhases; ++phase) {
    unsigned* const seen = out + phase * kObservations;
    const unsigned parity = phase & 1;
    if (t == 0) {
      const std::uint64_t token = ptx::mbarrier_arrive(&bar);
      seen[kBeforePartner] = try_wait(form, &bar, token, parity);
      seen[kPrecedingParity] = form == Form::kParity ? ptx::mbarrier_try_wait_parity(&bar, parity ^ 1) : 2u;
      release_flag.store(phase + 1, cuda::memory_order_release);  // thread 32 may arrive now
      bool done = false;
      for (unsigned tries = 0; tries < tma::kTryWaitLimit && !done; ++tries) done = try_wait(form, &bar, token, parity);
      seen[kAfterRetries] = done;
      seen[kPayload] = done ? payload[phase] : 0u;  // read only once the phase is known complete
    } else if (t == 32) {
      unsigned spins = 0;
      while (release_flag.load(cuda::memory_order_acquire) != phase + 1 && spins < (1u << 24)) {
        __nanosleep(64);
        ++spins;
      }
      const bool released = release_flag.load(cuda::memory_order_acquire) == phase + 1;
      seen[kPartnerReleased] = released;
      if (!released) return;  // thread 0's waits then end false: the host reports the stuck flag
      payload[phase] = payload_of(phase);
      (void)ptx::mbarrier_arrive(&bar);  // the second arrival completes the phase
    }
  }
#else
  (void)form;
  (void)out;
  (void)flag;
#endif
}

class MbarrierTryWait : public cuconform::GpuTestWithParam<Form> {};

RULE_P(MbarrierTryWait, IsFalseBeforeThePhaseCompletesAndTrueAfter, "PG12.9 10.29.1",
       "mbarrier try_wait (token and parity forms) returns false while the awaited phase is incomplete and true once "
       "the last arrival completed it, with the arrivers' writes visible; the parity form is true for the preceding "
       "phase") {
  REQUIRE_CC(9, 0);
  REQUIRE_DEVICE_CODE(9, 0);
  const Form form = GetParam();
  cuconform::DeviceBuffer<unsigned> out(std::size_t{kPhases} * kObservations);
  cuconform::DeviceBuffer<unsigned> flag(1);
  cuconform::launch(try_wait_phases, dim3(1), dim3(64), form, out.get(), flag.get());
  const std::vector<unsigned> seen = out.to_host();
  for (unsigned phase = 0; phase < kPhases; ++phase) {
    SCOPED_TRACE(testing::Message() << "phase " << phase);
    const unsigned* const s = seen.data() + phase * kObservations;
    ASSERT_EQ(s[kPartnerReleased], 1u) << "thread 32 never saw thread 0's flag";
    EXPECT_EQ(s[kBeforePartner], 0u) << "try_wait true with one of two arrivals";
    EXPECT_EQ(s[kAfterRetries], 1u) << "try_wait never true after both arrivals (" << tma::kTryWaitLimit << " tries)";
    EXPECT_EQ(s[kPayload], payload_of(phase)) << "write before the completing arrival not visible after try_wait";
    if (form == Form::kParity && phase > 0) {
      EXPECT_EQ(s[kPrecedingParity], 1u) << "try_wait_parity false for the parity of the completed preceding phase";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Forms, MbarrierTryWait, ::testing::Values(Form::kToken, Form::kParity),
                         [](const ::testing::TestParamInfo<Form>& info) {
                           return std::string(info.param == Form::kToken ? "Token" : "Parity");
                         });

}  // namespace
