#include <cuda_runtime.h>

#include "cuconform/device.h"
#include "cuconform/rule.h"

namespace cuconform {

void GpuTest::SetUp() {
  const Device& d = device();
  if (!d.available) GTEST_SKIP() << d.describe();
  note_gpu_used();
  // A non-sticky error a previous test left behind must not be reported against this one.
  (void)cudaGetLastError();
}

}  // namespace cuconform
