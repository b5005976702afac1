// The block-scope fences of the litmus cases whose partners share a block, checked in the compiled code.
//
// Inside one block the H100 has shown no weak outcome (the forbidden tests there report "not observable on this
// GPU"), so no run of those tests can fail when a block-scope fence is lost. What can still be checked is the
// compiler's side of 5.4.4.3: __threadfence_block() and the block-scope cuda::/__nv_ fences are memory fences, so
// the compiled kernel must execute a fence instruction (SASS MEMBAR) whose scope includes the block, and the kernel of
// the same case without the fence must have none (else the check could not tell the two apart). The SASS is read from
// this executable itself, so a kernel whose fence was removed after compilation fails too. This proves the fence is
// in the code the GPU runs; it does not prove that the hardware honours it.
#include <cuconform/cuconform.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <regex>
#include <string>
#include <vector>

#include "engine/case.h"
#include "engine/device_code.h"

namespace {

using litmus::Case;

// Forbidden cases whose partners share a block and whose ordering puts a block-scope fence between the accesses.
std::vector<const Case*> block_fenced_cases() {
  static const std::regex block_fence(R"(^(Volatile|Legacy)?(ThreadfenceBlock|(Cuda|Nv)Fence\w+Block)$)");
  std::vector<const Case*> out;
  for (const Case* c : litmus::all_cases()) {
    if (c->expect == litmus::Expect::Forbidden && litmus::in_one_block(c->placement) &&
        std::regex_match(c->ordering, block_fence)) {
      out.push_back(c);
    }
  }
  return out;
}

std::string case_name(const ::testing::TestParamInfo<const Case*>& info) { return info.param->name; }

// The mangled name of a case's test kernel ("" if the runtime cannot say).
std::string kernel_name(const Case& c) {
  const char* name = nullptr;
  return c.kernels.kernel && cudaFuncGetName(&name, c.kernels.kernel) == cudaSuccess && name ? name : "";
}

// The SASS of this executable, read once per process (and kept beside the executable for the next: device_code.h).
// Every function is read: cuobjdump's --function list makes it slower, not faster (the litmus executable of the ci
// build, 144 functions in five fatbins: 8.0 s with the 34 names of this rule, 3.3 s without, on the 2-core CPU
// machine, 2026-11-27).
const litmus::DeviceCode& own_device_code() {
  static const litmus::DeviceCode code = litmus::read_device_code("/proc/self/exe");
  return code;
}

class BlockFenceCode : public cuconform::GpuTestWithParam<const Case*> {};

RULE_P(BlockFenceCode, IsInTheCompiledKernel, "5.4.4.3",
       "A block-scope memory fence (__threadfence_block, cuda::atomic_thread_fence or __nv_atomic_thread_fence at "
       "block scope) is compiled into a fence instruction of at least block scope: the SASS of every fenced "
       "intra-block litmus kernel holds a MEMBAR .CTA/.GPU/.SYS, and that of its unfenced sibling none") {
  const Case& c = *GetParam();
  if (!c.kernels.compiled) SKIP_COMPILED_OUT("this compiler has no __nv_atomic_* built-ins (" << c.ordering << ")");
  const Case* sibling = litmus::find_case(c.sibling);
  ASSERT_NE(sibling, nullptr) << c.name << ": sibling " << c.sibling << " is not registered";
  ASSERT_TRUE(sibling->kernels.compiled) << sibling->name;

  const litmus::DeviceCode& code = own_device_code();
  if (!code.error.empty()) GTEST_SKIP() << "no SASS to read: " << code.error;

  const std::string fenced_name = kernel_name(c), plain_name = kernel_name(*sibling);
  ASSERT_FALSE(fenced_name.empty() || plain_name.empty()) << "cudaFuncGetName gave no name for a test kernel";
  const auto* fenced = litmus::find_function(code, fenced_name);
  const auto* plain = litmus::find_function(code, plain_name);
  ASSERT_NE(fenced, nullptr) << "kernel of " << c.name << " (" << fenced_name << ") not in the SASS " << code.tool
                             << " read (" << code.functions.size() << " functions in " << code.fatbins << " fatbins)";
  ASSERT_NE(plain, nullptr) << "kernel of " << sibling->name << " (" << plain_name << ") not in the SASS read";

  size_t fences_seen = 0;
  for (const auto& variant : *fenced) {
    const std::vector<std::string> fences = litmus::block_scope_fences(variant);
    fences_seen += fences.size();
    std::string listed;
    for (const std::string& f : fences) listed += "\n    " + f;
    std::printf("  %s: %zu instructions, block-scope fences:%s\n", c.name.c_str(), variant.size(),
                fences.empty() ? " none" : listed.c_str());
    EXPECT_FALSE(fences.empty()) << c.name << " (" << c.ordering << "): its kernel " << fenced_name << " has "
                                 << variant.size() << " instructions and no MEMBAR of block scope or wider; the fence "
                                 << "the source asks for is not in the compiled code";
  }
  for (const auto& variant : *plain) {
    const std::vector<std::string> fences = litmus::block_scope_fences(variant);
    EXPECT_TRUE(fences.empty()) << "the unfenced sibling " << sibling->name << " already has " << fences.size()
                                << " MEMBAR (first: " << (fences.empty() ? "" : fences[0])
                                << "): the check cannot tell a kernel with the fence from one without";
  }
  cuconform::record_metric("fences", static_cast<long long>(fences_seen));
  cuconform::record_metric("variants", static_cast<long long>(fenced->size()));
}

INSTANTIATE_TEST_SUITE_P(Litmus, BlockFenceCode, ::testing::ValuesIn(block_fenced_cases()), case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(BlockFenceCode);

}  // namespace
