// PG12.9 13.5.2 Compatibility and Interoperability, through a function compiled with CUDA_FORCE_CDP1_IF_SUPPORTED
// that launches a function compiled without it (cdp2_child.cu). Below CC 9.0 the first uses CDP1 and the second
// CDP2: "a function using CDP1 cannot launch a function using CDP2", and cudaErrorCdpVersionMismatch "would result
// during function load". On CC 9.0 and higher both use the new interface, so the launch works.
#include "cdp1.h"

#include <vector>

namespace cuconform::cdp {
namespace {

__global__ void cdp1_parent_launches_cdp2_child(int* out, int* launch_error) {
#ifdef __clang__
  // clang 22 cannot link a device-side launch of a kernel defined in another file (nvlink: "Function ... not declared
  // __global__ in all source files"); the clang build skips these rules anyway (cdp.h), so the launch is left out.
  *launch_error = -1;
#else
  cdp2_child_writes<<<1, 1>>>(out, 55);
  *launch_error = cudaGetLastError();
#endif
}

RULE_F(CdpVersions, Cdp1FunctionLaunchingACdp2FunctionFailsToLoad, "PG12.9 13.5.2",
       "a function using CDP1 cannot launch a function using CDP2: if a function that would use CDP1 contains a "
       "function that would use CDP2 in its call graph, cudaErrorCdpVersionMismatch results during function load") {
  if (device().available && device().cc() >= 90) GTEST_SKIP() << kEveryFunctionUsesCdp2 << device().describe();
  DeviceBuffer<int> out(1), launch_error(std::vector<int>{-1});
  const cudaError_t error = try_launch(cdp1_parent_launches_cdp2_child, Shape{1, 1}, out.get(), launch_error.get());
  EXPECT_EQ(error, cudaErrorCdpVersionMismatch) << "the host's launch of the CDP1 parent (or its completion)";
}

RULE_F(CdpVersions, FunctionCompiledForCdp1UsesCdp2OnCc90AndHigher, "PG12.9 13.5.2",
       "on compute capability 9.0 and higher a function compiled with CUDA_FORCE_CDP1_IF_SUPPORTED uses the new "
       "interface: it may launch a function compiled without it (no version mismatch)") {
  REQUIRE_CC(9, 0);
  DeviceBuffer<int> out(1), launch_error(std::vector<int>{-1});
  launch(cdp1_parent_launches_cdp2_child, 1, 1, out.get(), launch_error.get());
  EXPECT_EQ(launch_error.to_host()[0], cudaSuccess) << "the device-side launch of the CDP2 child";
  EXPECT_EQ(out.to_host()[0], 55) << "the CDP2 child did not run";
}

}  // namespace
}  // namespace cuconform::cdp
