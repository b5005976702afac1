// The rules the litmus cases check. Each rule is one documented statement; its tests are the cases of
// spec/litmus/outcomes.toml that name it (shape x placement x ordering), registered by the shape files.
//
// A test runs its case for the profile's budget (CUCONFORM_LITMUS tunes it, see README.md), records each outcome's
// count and the rates as metrics, and judges: an outcome that no ordering allows (a value nobody wrote, a coherence
// violation, a role that never ran) fails every test; a forbidden weak outcome seen even once fails a forbidden test;
// a forbidden test whose allowed sibling never showed its weak outcome under the same stress is skipped as
// inconclusive, because it could not have seen the weak outcome either.
#include <cuconform/cuconform.h>

#include <climits>
#include <cstdio>
#include <string>
#include <unistd.h>
#include <vector>

#include "engine/case.h"
#include "engine/config.h"
#include "engine/runner.h"
#include "engine/verdict.h"

namespace {

using litmus::Case;
using litmus::Expect;
using litmus::Placement;

std::string this_binary() {
  char path[PATH_MAX];
  const ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
  return length > 0 ? std::string(path, static_cast<size_t>(length)) : std::string("cuconform-litmus");
}

void record_tally(const std::string& prefix, const Case& c, const litmus::Tally& t) {
  cuconform::record_metric(prefix + "instances", static_cast<long long>(t.instances));
  cuconform::record_metric(prefix + "iterations", static_cast<long long>(t.iterations));
  cuconform::record_metric(prefix + "instances_per_launch", static_cast<long long>(t.instances_per_launch));
  cuconform::record_metric(prefix + "seconds", t.gpu_ms / 1000.0);
  cuconform::record_metric(prefix + "instances_per_second", litmus::per_second(t.instances, t));
  cuconform::record_metric(prefix + "weak", static_cast<long long>(litmus::weak_count(c, t)));
  cuconform::record_metric(prefix + "weak_per_second", litmus::per_second(litmus::weak_count(c, t), t));
  cuconform::record_metric(prefix + "barrier_timeouts", static_cast<long long>(t.barrier_timeouts));
  const litmus::Outcomes& o = c.shape->outcomes;
  for (uint32_t bin = 0; bin < o.bins(); ++bin) {
    if (bin >= o.value_bins() && t.bins[bin] == 0) continue;
    cuconform::record_metric(prefix + "outcome." + litmus::outcome_name(*c.shape, bin),
                             static_cast<long long>(t.bins[bin]));
  }
}

// Every litmus rule's fixture: runs the parameter's case and judges it.
class LitmusRule : public cuconform::ExclusiveGpuTestWithParam<const Case*> {
 protected:
  void Check() {
    const Case& c = *GetParam();
    if (!c.kernels.compiled) SKIP_COMPILED_OUT("this compiler has no __nv_atomic_* built-ins (" << c.ordering << ")");
    const Case* sibling = c.sibling.empty() ? nullptr : litmus::find_case(c.sibling);
    ASSERT_TRUE(c.sibling.empty() || sibling) << c.name << ": sibling " << c.sibling << " is not registered";
    for (const Case* k : {&c, sibling}) {
      if (!k) continue;
      if (!k->kernels.compiled) {
        SKIP_COMPILED_OUT("sibling " << k->name << " needs __nv_atomic_* built-ins (" << k->ordering << ")");
      }
      switch (k->placement) {
        case Placement::Devices: REQUIRE_DEVICE_COUNT(2); break;
        case Placement::Cluster:
          REQUIRE_CC(9, 0);
          REQUIRE_ATTRIBUTE(cudaDevAttrClusterLaunch, "thread block cluster launch");
          break;
        case Placement::HostMemory:
        case Placement::HostThread:
          REQUIRE_ATTRIBUTE(cudaDevAttrCanMapHostMemory, "mapping page-locked host memory");
          break;
        default: break;
      }
    }

    std::string config_error;
    const litmus::Config config = litmus::current_config(config_error);
    ASSERT_TRUE(config_error.empty()) << config_error;
    cuconform::record_metric("config", litmus::describe(config));

    const litmus::RunResult run = litmus::run_case(c, sibling, config);
    if (!run.skip.empty()) GTEST_SKIP() << run.skip;
    ASSERT_TRUE(run.error.empty()) << run.error;

    cuconform::record_metric("blocks", static_cast<long long>(run.blocks));
    record_tally("", c, run.test);
    if (sibling) record_tally("sibling.", *sibling, run.sibling);
    const litmus::Verdict verdict = litmus::judge(c, run.test, sibling, sibling ? &run.sibling : nullptr);
    std::printf("%s", litmus::histogram_table(c, run.test, sibling, sibling ? &run.sibling : nullptr).c_str());

    switch (verdict.kind) {
      case litmus::Verdict::Kind::Pass:
        cuconform::record_metric("verdict", c.expect == Expect::Forbidden ? "pass" : "allowed");
        break;
      case litmus::Verdict::Kind::Inconclusive:
        cuconform::record_metric("verdict", "inconclusive");
        GTEST_SKIP() << verdict.message;
        break;
      case litmus::Verdict::Kind::Fail: {
        cuconform::record_metric("verdict", "fail");
        const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
        ADD_FAILURE() << verdict.message << "\n  shape: " << c.shape->code << "\n  reproduce: CUCONFORM_LITMUS='"
                      << litmus::describe(config) << "' " << this_binary() << " --gtest_filter='"
                      << test->test_suite_name() << "." << test->name() << "'";
        break;
      }
    }
  }
};

std::vector<const Case*> cases_of(const char* rule) { return litmus::cases_of_rule(rule); }

std::string case_name(const ::testing::TestParamInfo<const Case*>& info) { return info.param->name; }

// One fixture per rule: GoogleTest instantiates the parameters of a fixture for all its TEST_Ps.
#define LITMUS_RULE(suite, name, section, statement)                                                   \
  class suite : public LitmusRule {};                                                                  \
  RULE_P(suite, name, section, statement) { Check(); }                                                 \
  INSTANTIATE_TEST_SUITE_P(Litmus, suite, ::testing::ValuesIn(cases_of(#suite "." #name)), case_name); \
  GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(suite)

// ---- PG 5.4.4.3 Memory Fence Functions ----------------------------------------------------------------------------

LITMUS_RULE(BlockFence, OrdersAccessesSeenByTheBlock, "5.4.4.3",
            "A block-level fence (__threadfence_block, cuda::atomic_thread_fence(seq_cst, thread_scope_block)) makes "
            "the threads of the block observe the caller's writes before it ahead of its writes after it, and orders "
            "its reads before it ahead of its reads after it");

LITMUS_RULE(DeviceFence, OrdersWritesSeenByTheDevice, "5.4.4.3",
            "No write made after a device-level fence (__threadfence, cuda::atomic_thread_fence(seq_cst, "
            "thread_scope_device)) is observed by any thread of the device before a write made before it");

LITMUS_RULE(SystemFence, OrdersWritesSeenByAllThreads, "5.4.4.3",
            "Writes made before a system-level fence (__threadfence_system, cuda::atomic_thread_fence(seq_cst, "
            "thread_scope_system)) are observed by all threads of the device, host threads and threads of peer "
            "devices before the writes made after it");

LITMUS_RULE(FenceMemorySpaces, AreOrderedAlike, "5.4.4.3",
            "Memory fences order accesses alike whatever memory they access: shared memory, global memory, "
            "page-locked host memory, the memory of a peer device");

LITMUS_RULE(SeqCstFences, ForbidNonSequentiallyConsistentOutcomes, "5.4.4.3",
            "Memory fence functions enforce a sequentially consistent ordering among the threads of their scope: with "
            "a fence between every thread's accesses, SB, LB, S, R, 2+2W, IRIW, WRC and ISA2 show no weak outcome");

LITMUS_RULE(FenceExample, OutcomeA1B20IsImpossible, "5.4.4.3",
            "In the guide's example with a device-level fence in writeXY() and readXY(), A == 1 and B == 20 is not "
            "possible");

LITMUS_RULE(FenceExampleInOneBlock, BlockFenceSuffices, "5.4.4.3",
            "In the guide's example, if the two threads belong to the same block a block-level fence is enough");

LITMUS_RULE(FenceExampleAcrossDevices, SystemFenceSuffices, "5.4.4.3",
            "In the guide's example, CUDA threads of two different devices are ordered by a system-level fence");

LITMUS_RULE(CudaFence, SynchronizesByItsMemoryOrder, "5.4.4.3",
            "cuda::atomic_thread_fence (recommended by the guide) has C++ fence semantics at its scope: acq_rel "
            "fences, or a release fence before a flag store and an acquire fence after the flag load, synchronize "
            "through relaxed atomics");

LITMUS_RULE(FenceScope, NarrowScopeGivesOtherThreadsNoOrder, "5.4.4.3",
            "A fence or atomic whose scope excludes the other thread (block scope across blocks, device scope across "
            "GPUs) does not order for it: the weak outcome is allowed, its rate is reported");

LITMUS_RULE(FenceOrder, WeakerOrdersAllowWeakOutcomes, "5.4.5.2",
            "Under C++ memory-order semantics, acquire/release atomics and acq_rel fences are not sequentially "
            "consistent, a release fence does not order loads and an acquire fence does not order stores: those weak "
            "outcomes are allowed, their rates reported");

LITMUS_RULE(Unordered, WeakOutcomesAreAllowed, "5.4.4.3",
            "The CUDA memory model is weakly ordered: without fences or ordered atomics, accesses to different "
            "locations may be observed in any order (weak outcomes allowed, rates reported), but every value read "
            "was written by some thread");

// ---- PG 5.4.5 Atomic Functions ------------------------------------------------------------------------------------

LITMUS_RULE(LegacyAtomics, DoNotSynchronize, "5.4.5",
            "Legacy atomic functions only ensure atomicity and introduce no synchronization points: message passing "
            "through them alone may show the weak outcome");

LITMUS_RULE(LegacyAtomicsWithThreadfence, DeliverTheMessage, "PG12.9 18.5.3.3",
            "Message passing through atomicExch and atomicAdd(flag, 0) with __threadfence on both sides delivers the "
            "data (the guide's own example)");

LITMUS_RULE(NvAtomicThreadFence, OrdersByItsMemoryOrderForItsScope, "5.4.5.2.12",
            "__nv_atomic_thread_fence orders the calling thread's accesses according to its memory order, for the "
            "threads of its scope");

LITMUS_RULE(NvAtomicReleaseAcquire, Synchronizes, "5.4.5.2",
            "Built-in atomics follow C++ memory orders and thread scopes: an acquire load that reads a release store "
            "of a scope containing both threads synchronizes with it");

LITMUS_RULE(NvAtomicSeqCst, IsSequentiallyConsistent, "5.4.5.2",
            "Built-in seq_cst atomic loads and stores are sequentially consistent among the threads of their scope");

LITMUS_RULE(AtomicRefReleaseAcquire, Synchronizes, "libcu++ atomic_ref",
            "cuda::atomic_ref has cuda::std::atomic_ref semantics at its thread scope: an acquire load that reads a "
            "release store synchronizes with it");

LITMUS_RULE(AtomicRefReadModifyWrite, ReleaseAcquireSynchronizes, "libcu++ atomic_ref",
            "cuda::atomic_ref read-modify-write operations take their memory order: an acquire fetch_add that reads "
            "the value of a release exchange synchronizes with it");

LITMUS_RULE(AtomicRefSeqCst, IsSequentiallyConsistent, "libcu++ atomic_ref",
            "cuda::atomic_ref seq_cst loads and stores are sequentially consistent among the threads of its scope");

LITMUS_RULE(AtomicCoherence, HoldsForEveryLocation, "5.4.5",
            "Atomics follow C++ atomic semantics, so relaxed atomic accesses to one location respect read-read, "
            "read-write, write-read and write-write coherence");

LITMUS_RULE(VolatileCoherence, HoldsForEveryLocation, "PTX ISA 9.0 Memory Consistency Model",
            "volatile loads and stores compile to ld.volatile/st.volatile, relaxed system-scope operations of the PTX "
            "memory model, which are coherent per location");

}  // namespace
