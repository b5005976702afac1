// 5.4.1.2 Memory Space Specifiers (Table 39, __constant__) and 2.2.3.5 Constant Memory: __constant__ variables are
// readable by every thread of the grid, written from the host through the runtime, reachable through the symbol API,
// one object per device, alive as long as the CUDA context.
#include <cuconform/cuconform.h>

#include <vector>

namespace {

__constant__ float constant_mem_var = 4.0f;  // the guide's example (5.4.1.2)
__constant__ float coeffs[4];                // the guide's example (2.2.3.5)
__constant__ float context_lifetime_var = 4.0f;
__constant__ int per_device_var;

template <class T>
__global__ void read_constant_everywhere(const T* variable, T* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = *variable;
}

__global__ void read_constant_mem_var(float* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = constant_mem_var; }

class ConstantMemory : public cuconform::GpuTest {};

RULE_F(ConstantMemory, InitializerIsReadByEveryThread, "5.4.1.2",
       "a __constant__ variable is accessible by every thread of the grid: all read its initial value") {
  constexpr unsigned kBlocks = 3, kThreads = 96;
  cuconform::DeviceBuffer<float> out(kBlocks * kThreads);
  cuconform::launch(read_constant_mem_var, kBlocks, kThreads, out.get());
  EXPECT_TRUE(cuconform::ElementsEqual(out.to_host(), std::vector<float>(kBlocks * kThreads, 4.0f)));
}

// The guide's kernel (2.2.3.5).
__global__ void compute(float* out) {
  int idx = threadIdx.x;
  out[idx] = coeffs[0] * idx + coeffs[1];
}

RULE_F(ConstantMemory, MemcpyToSymbolIsSeenByTheKernel, "2.2.3.5",
       "__constant__ memory is written from the host with cudaMemcpyToSymbol and read by the kernels launched after") {
  const float h_coeffs[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  CUDA_ASSERT(cudaMemcpyToSymbol(coeffs, h_coeffs, sizeof(h_coeffs)));
  cuconform::DeviceBuffer<float> out(10);
  cuconform::launch(compute, 1, 10, out.get());
  std::vector<float> expected;
  for (int idx = 0; idx < 10; ++idx) expected.push_back(1.0f * idx + 2.0f);
  EXPECT_TRUE(cuconform::ElementsEqual(out.to_host(), expected));
}

RULE_F(ConstantMemory, MemcpyFromSymbolReadsItBack, "5.4.1.2",
       "cudaMemcpyFromSymbol copies a __constant__ variable to the host") {
  const float written[4] = {-1.5f, 0.25f, 1e30f, -0.0f};
  CUDA_ASSERT(cudaMemcpyToSymbol(coeffs, written, sizeof(written)));
  float read[4] = {};
  CUDA_ASSERT(cudaMemcpyFromSymbol(read, coeffs, sizeof(read)));
  EXPECT_TRUE(cuconform::ElementsEqual(std::vector<float>(read, read + 4), std::vector<float>(written, written + 4)));
  float initial = 0;
  CUDA_ASSERT(cudaMemcpyFromSymbol(&initial, constant_mem_var, sizeof(initial)));
  EXPECT_EQ(initial, 4.0f) << "the initializer of constant_mem_var";
}

RULE_F(ConstantMemory, GetSymbolSizeIsTheVariableSize, "5.4.1.2",
       "cudaGetSymbolSize gives the size of a __constant__ variable") {
  size_t size = 0;
  CUDA_ASSERT(cudaGetSymbolSize(&size, coeffs));
  EXPECT_EQ(size, sizeof(float[4]));
  CUDA_ASSERT(cudaGetSymbolSize(&size, constant_mem_var));
  EXPECT_EQ(size, sizeof(float));
}

RULE_F(ConstantMemory, GetSymbolAddressPointsAtTheVariable, "5.4.1.2",
       "cudaGetSymbolAddress gives the device address of a __constant__ variable: kernels and copies through it "
       "reach the variable") {
  const float written[4] = {7.0f, 8.0f, 9.0f, 10.0f};
  CUDA_ASSERT(cudaMemcpyToSymbol(coeffs, written, sizeof(written)));
  float* address = nullptr;
  CUDA_ASSERT(cudaGetSymbolAddress(reinterpret_cast<void**>(&address), coeffs));
  ASSERT_NE(address, nullptr);
  float copied[4] = {};
  CUDA_ASSERT(cudaMemcpy(copied, address, sizeof(copied), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(cuconform::ElementsEqual(std::vector<float>(copied, copied + 4), std::vector<float>(written, written + 4)));
  cuconform::DeviceBuffer<float> out(32);
  cuconform::launch(read_constant_everywhere<float>, 1, 32, address + 2, out.get());
  EXPECT_TRUE(cuconform::ElementsEqual(out.to_host(), std::vector<float>(32, 9.0f)));
}

__global__ void read_context_lifetime_var(float* out) { *out = context_lifetime_var; }

// Runs alone: cudaDeviceReset destroys the context every other rule of the process would share.
class ConstantMemoryContext : public cuconform::ExclusiveGpuTest {};

RULE_F(ConstantMemoryContext, LifetimeIsTheContext, "2.2.3.5",
       "a __constant__ variable has the lifetime of the CUDA context: after cudaDeviceReset the new context has the "
       "initial value again") {
  const float changed = 7.0f;
  CUDA_ASSERT(cudaMemcpyToSymbol(context_lifetime_var, &changed, sizeof(changed)));
  {
    cuconform::DeviceBuffer<float> out(1);
    cuconform::launch(read_context_lifetime_var, 1, 1, out.get());
    ASSERT_EQ(out.value_at(0), 7.0f) << "before the reset";
  }
  CUDA_ASSERT(cudaDeviceReset());
  cuconform::DeviceBuffer<float> out(1);
  cuconform::launch(read_context_lifetime_var, 1, 1, out.get());
  EXPECT_EQ(out.value_at(0), 4.0f) << "in the new context";
}

__global__ void read_per_device_var(int* out) { *out = per_device_var; }

RULE_F(ConstantMemory, DistinctObjectPerDevice, "2.2.3.5",
       "a __constant__ variable has a distinct object per device") {
  REQUIRE_DEVICE_COUNT(2);
  for (int device : {0, 1}) {
    CUDA_ASSERT(cudaSetDevice(device));
    const int value = 100 + device;
    CUDA_ASSERT(cudaMemcpyToSymbol(per_device_var, &value, sizeof(value)));
  }
  for (int device : {0, 1}) {
    CUDA_ASSERT(cudaSetDevice(device));
    cuconform::DeviceBuffer<int> out(1);
    cuconform::launch(read_per_device_var, 1, 1, out.get());
    EXPECT_EQ(out.value_at(0), 100 + device) << "device " << device;
  }
  CUDA_ASSERT(cudaSetDevice(cuconform::device().ordinal));
}

}  // namespace
