// 5.4.3.3 Maximum Number of Registers per Thread: __maxnreg__(N) caps the registers of each thread of a kernel.
// clang 22 does not know the attribute (it warns "unknown attribute 'maxnreg' ignored" and emits no .maxnreg): the
// rule is compiled out there.
#include <cuconform/cuconform.h>

#include "register_pressure.h"

namespace {

using namespace cuconform::registers;

constexpr int kLiveValues = 100;  // wants about 100 registers without a cap (ptxas: 96 on sm_90)
constexpr int kCap = 40;

#if !CUCONFORM_CLANG_CUDA
__global__ void __maxnreg__(kCap) capped_at_40(const unsigned* in, unsigned* out) {
  fold_live_values<kLiveValues>(in, out);
}
#endif

class Maxnreg : public cuconform::GpuTest {};

RULE_F(Maxnreg, CapsTheRegistersOfEachThread, "5.4.3.3",
       "__maxnreg__(N) is the maximum number of registers allocated to a thread of the kernel: a kernel wanting ~100 "
       "uses at most 40 and still computes correctly") {
#if CUCONFORM_CLANG_CUDA
  SKIP_COMPILED_OUT("clang ignores the maxnreg attribute (-Wunknown-attributes): no __maxnreg__");
#else
  const cudaFuncAttributes a = attributes_of(reinterpret_cast<const void*>(capped_at_40));
  cuconform::record_metric("num_regs", (long long)a.numRegs);
  EXPECT_LE(a.numRegs, kCap);
  EXPECT_TRUE(FoldsCorrectly<kLiveValues>(capped_at_40, 2, 128));
#endif
}

}  // namespace
