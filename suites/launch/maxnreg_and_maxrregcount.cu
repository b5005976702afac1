// 5.4.3.3: 'The --maxrregcount <N> compiler option can be used to control register usage for all __global__
// functions in a file. This option is ignored for kernel functions with the __maxnreg__ qualifier.'
// This file is compiled with a register limit of 32 (CMakeLists.txt; clang: -Xcuda-ptxas --maxrregcount=32). clang 22
// does not know __maxnreg__ (it warns "unknown attribute 'maxnreg' ignored"): the rule about it is compiled out there.
#include <cuconform/cuconform.h>

#include "register_pressure.h"

namespace {

using namespace cuconform::registers;

constexpr int kLiveValues = 100;  // wants about 100 registers without a limit
constexpr int kFileLimit = 32;    // the --maxrregcount of this file
constexpr int kCap = 64;

__global__ void limited_by_the_file(const unsigned* in, unsigned* out) { fold_live_values<kLiveValues>(in, out); }
#if !CUCONFORM_CLANG_CUDA
__global__ void __maxnreg__(kCap) capped_by_maxnreg(const unsigned* in, unsigned* out) {
  fold_live_values<kLiveValues>(in, out);
}
#endif

class MaxrregcountOption : public cuconform::GpuTest {};

RULE_F(MaxrregcountOption, LimitsTheKernelsOfTheFile, "5.4.3.3",
       "--maxrregcount <N> controls the register usage of the __global__ functions of a file") {
  const cudaFuncAttributes a = attributes_of(reinterpret_cast<const void*>(limited_by_the_file));
  cuconform::record_metric("num_regs", (long long)a.numRegs);
  EXPECT_LE(a.numRegs, kFileLimit);
  EXPECT_TRUE(FoldsCorrectly<kLiveValues>(limited_by_the_file, 2, 128));
}

RULE_F(MaxrregcountOption, IsIgnoredForMaxnregKernels, "5.4.3.3",
       "--maxrregcount is ignored for kernels with __maxnreg__: such a kernel uses more registers than the file "
       "limit (32), up to its own cap (64)") {
#if CUCONFORM_CLANG_CUDA
  SKIP_COMPILED_OUT("clang ignores the maxnreg attribute (-Wunknown-attributes): no __maxnreg__");
#else
  const cudaFuncAttributes a = attributes_of(reinterpret_cast<const void*>(capped_by_maxnreg));
  cuconform::record_metric("num_regs", (long long)a.numRegs);
  EXPECT_GT(a.numRegs, kFileLimit);
  EXPECT_LE(a.numRegs, kCap);
  EXPECT_TRUE(FoldsCorrectly<kLiveValues>(capped_by_maxnreg, 2, 128));
#endif
}

}  // namespace
