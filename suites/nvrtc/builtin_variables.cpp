// 5.4.2.2 Built-in Variables, through NVRTC: kernels/builtin_variables.cu compiled at run time.
#include <cuconform/cuconform.h>

#include <vector>

#include "jit_kernels.h"

namespace {

class NvrtcBuiltinVariables : public cuconform::GpuTest {};

RULE_F(NvrtcBuiltinVariables, IndicesAndDimensionsPerThread, "5.4.2.2",
       "in NVRTC-compiled code, threadIdx, blockIdx, blockDim and gridDim give each thread its index and the launch's "
       "dimensions") {
  const dim3 grid(3, 2, 2), block(5, 3, 2);  // sizes that are not multiples of the warp size
  const unsigned blocks = grid.x * grid.y * grid.z, threads = block.x * block.y * block.z;
  cuconform::DeviceBuffer<unsigned> out(12 * blocks * threads);
  cuconform::nvrtc::jit_module("builtin_variables.cu").launch("record_indices", grid, block, out.get());

  std::vector<unsigned> expected;
  for (unsigned bz = 0; bz < grid.z; ++bz)
    for (unsigned by = 0; by < grid.y; ++by)
      for (unsigned bx = 0; bx < grid.x; ++bx)
        for (unsigned tz = 0; tz < block.z; ++tz)
          for (unsigned ty = 0; ty < block.y; ++ty)
            for (unsigned tx = 0; tx < block.x; ++tx)
              expected.insert(expected.end(),
                              {tx, ty, tz, bx, by, bz, block.x, block.y, block.z, grid.x, grid.y, grid.z});
  EXPECT_TRUE(cuconform::ElementsEqual(out.to_host(), expected));
}

RULE_F(NvrtcBuiltinVariables, WarpSizeIsDocumentedValue, "5.4.2.2",
       "in NVRTC-compiled code, warpSize holds the number of threads in a warp") {
  REQUIRE_DOCUMENTED(warp_size, "warp_size");
  constexpr unsigned kThreads = 70;
  cuconform::DeviceBuffer<int> out(kThreads);
  cuconform::nvrtc::jit_module("builtin_variables.cu").launch("record_warp_size", dim3(1), dim3(kThreads), out.get());
  EXPECT_TRUE(cuconform::ElementsEqual(out.to_host(), std::vector<int>(kThreads, static_cast<int>(warp_size))));
}

}  // namespace
