// A CDP2 function (this file is compiled without CUDA_FORCE_CDP1_IF_SUPPORTED) for cdp1_versions.cu to launch.
#include "cdp1.h"

namespace cuconform::cdp {

__global__ void cdp2_child_writes(int* out, int marker) { *out = marker; }

}  // namespace cuconform::cdp
