// Registers (PG12.9 20.2 Table 28; 5.4.3.2): at most 255 per thread, at most the documented registers per block; a
// block with too many threads for the kernel's register count fails with cudaErrorLaunchOutOfResources ('too many
// resources requested for launch').
#include <cuconform/cuconform.h>

#include "../launch/register_pressure.h"

namespace {

using namespace cuconform::registers;

constexpr int kManyValues = 100;     // wants ~96 registers: 1024 threads need more than 64 K
constexpr int kTooManyValues = 300;  // wants more than the 255 a thread can have

__global__ void wants_about_100_registers(const unsigned* in, unsigned* out) { fold_live_values<kManyValues>(in, out); }
__global__ void wants_300_registers(const unsigned* in, unsigned* out) { fold_live_values<kTooManyValues>(in, out); }

class RegisterLimit : public cuconform::GpuTest {};

RULE_F(RegisterLimit, AtMost255RegistersPerThread, "PG12.9 20.2",
       "Table 28: a thread has at most 255 32-bit registers; a kernel wanting more spills and still computes") {
  REQUIRE_DOCUMENTED(per_thread, "max_registers_per_thread");
  const cudaFuncAttributes a = attributes_of(reinterpret_cast<const void*>(wants_300_registers));
  cuconform::record_metric("num_regs", (long long)a.numRegs);
  cuconform::record_metric("local_bytes", (long long)a.localSizeBytes);
  EXPECT_LE(a.numRegs, per_thread);
  EXPECT_TRUE(FoldsCorrectly<kTooManyValues>(wants_300_registers, 1, 64));
}

RULE_F(RegisterLimit, TooManyThreadsForTheRegisterCountIsOutOfResources, "PG12.9 20.2",
       "a block whose threads need more registers than a block may have (Table 28: 64 K) fails with "
       "cudaErrorLaunchOutOfResources (5.4.3.2 'too many resources requested for launch'; CUDA Runtime API)") {
  REQUIRE_DOCUMENTED(per_block, "max_registers_per_block");
  REQUIRE_DOCUMENTED(max_threads, "max_threads_per_block");
  const cudaFuncAttributes a = attributes_of(reinterpret_cast<const void*>(wants_about_100_registers));
  cuconform::record_metric("num_regs", (long long)a.numRegs);
  ASSERT_GT(a.numRegs * max_threads, per_block) << "test construction: the kernel must need more than " << per_block
                                                << " registers for " << max_threads << " threads";
  cuconform::DeviceBuffer<unsigned> in(kManyValues * max_threads), out(max_threads);
  const cudaError_t error =
      cuconform::try_launch(wants_about_100_registers, cuconform::Shape{1, unsigned(max_threads)}, in.get(), out.get());
  EXPECT_EQ(error, cudaErrorLaunchOutOfResources) << cuconform::describe(error);
}

RULE_F(RegisterLimit, FunctionMaxThreadsIsWhatTheRegistersAllow, "PG12.9 20.2",
       "cudaFuncGetAttributes' maxThreadsPerBlock of a register-hungry kernel stays within the registers per block; "
       "a launch of that many threads runs, one thread more fails with cudaErrorLaunchOutOfResources") {
  REQUIRE_DOCUMENTED(per_block, "max_registers_per_block");
  const cudaFuncAttributes a = attributes_of(reinterpret_cast<const void*>(wants_about_100_registers));
  cuconform::record_metric("max_threads_per_block", (long long)a.maxThreadsPerBlock);
  EXPECT_LE(1ll * a.maxThreadsPerBlock * a.numRegs, per_block);
  EXPECT_TRUE(FoldsCorrectly<kManyValues>(wants_about_100_registers, 2, unsigned(a.maxThreadsPerBlock)));
  const unsigned one_more = unsigned(a.maxThreadsPerBlock) + 1;
  cuconform::DeviceBuffer<unsigned> in(kManyValues * one_more), out(one_more);
  EXPECT_EQ(cuconform::try_launch(wants_about_100_registers, cuconform::Shape{1, one_more}, in.get(), out.get()),
            cudaErrorLaunchOutOfResources)
      << one_more << " threads of " << a.numRegs << " registers";
}

}  // namespace
