// Constant memory size (PG12.9 20.2 Table 28: 64 KB; 2.2.3.5 'typically 64KB per device'): a __constant__ array of
// the whole size builds, is written from the host and read back by a kernel, every byte. Its own translation unit,
// so that no other __constant__ variable shares the module's constant bank.
#include <cuconform/cuconform.h>

#include <vector>

namespace {

constexpr unsigned kConstantBytes = 64 * 1024;  // checked against the documented value in the rule

__constant__ unsigned char whole_constant_memory[kConstantBytes];

__global__ void read_all_constant_memory(unsigned char* out) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < kConstantBytes; i += gridDim.x * blockDim.x) {
    out[i] = whole_constant_memory[i];
  }
}

class ConstantMemoryLimit : public cuconform::GpuTest {};

RULE_F(ConstantMemoryLimit, WholeSizeIsUsable, "PG12.9 20.2",
       "Table 28: constant memory size is 64 KB: a __constant__ array of that size is written with "
       "cudaMemcpyToSymbol and every byte reads back in a kernel") {
  REQUIRE_DOCUMENTED(documented, "constant_memory_size");
  ASSERT_EQ(kConstantBytes, documented) << "the array must be the documented size";
  size_t size = 0;
  CUDA_ASSERT(cudaGetSymbolSize(&size, whole_constant_memory));
  EXPECT_EQ(size, kConstantBytes);
  std::vector<unsigned char> pattern(kConstantBytes);
  for (unsigned i = 0; i < kConstantBytes; ++i) pattern[i] = (i * 131u + (i >> 8)) & 0xffu;
  CUDA_ASSERT(cudaMemcpyToSymbol(whole_constant_memory, pattern.data(), kConstantBytes));
  cuconform::DeviceBuffer<unsigned char> out(kConstantBytes);
  cuconform::launch(read_all_constant_memory, 64, 256, out.get());
  EXPECT_TRUE(cuconform::ElementsEqual(out.to_host(), pattern));
}

}  // namespace
