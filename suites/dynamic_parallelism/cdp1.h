// The rules of cuconform-dynamic_parallelism-cdp1 (PG12.9 13.5): functions compiled with
// -DCUDA_FORCE_CDP1_IF_SUPPORTED (cdp1_streams.cu, cdp1_versions.cu; CMakeLists.txt defines it for them) and one
// compiled without it (cdp2_child.cu). A binary of its own: below CC 9.0 the CDP1 function that launches a CDP2
// function is documented to fail to load, which must not take the area's other rules with it.
#pragma once

#include "cdp.h"

namespace cuconform::cdp {

class CdpVersions : public DynamicParallelism {};

// "on CC 9.0 and higher every function uses CDP2" (13.5.2): why a rule about the legacy interface skips there.
inline constexpr const char* kEveryFunctionUsesCdp2 =
    "on compute capability 9.0 and higher a function compiled with CUDA_FORCE_CDP1_IF_SUPPORTED uses the new (CDP2) "
    "interface too (PG12.9 13.5.2): the legacy interface cannot be observed; ";

// Defined in cdp2_child.cu, compiled without CUDA_FORCE_CDP1_IF_SUPPORTED: *out = marker.
__global__ void cdp2_child_writes(int* out, int marker);

}  // namespace cuconform::cdp
