// 5.4.1.2 Memory Space Specifiers (Table 39) and 2.2.3.5 Constant Memory: __device__ and __constant__ variables.
// A __device__ variable lives in global memory, is reachable by every thread of the grid and through the runtime
// symbol API, lives as long as the program/context (across launches) and has one instance per device; the guide's
// example is the first rule. The __constant__ rules follow.
#include <cuconform/cuconform.h>

#include <vector>

namespace {

__device__ float device_var = 4.0f;  // the guide's example
__device__ float written_from_host;
__device__ unsigned written_by_kernel;
__device__ unsigned long long grid_counter;
__device__ unsigned persisted;
__device__ int per_device_var;

class DeviceVariable : public cuconform::GpuTest {};

RULE_F(DeviceVariable, GuideExampleSymbolApi, "5.4.1.2",
       "the guide's example: cudaGetSymbolAddress, cudaGetSymbolSize (4 bytes), cudaMemcpyFromSymbol (4.0f) and "
       "cudaMemcpyToSymbol (3.0f) on a __device__ float initialized to 4.0f") {
  float* device_ptr = nullptr;
  CUDA_ASSERT(cudaGetSymbolAddress((void**)&device_ptr, device_var));
  EXPECT_NE(device_ptr, nullptr);
  size_t symbol_size = 0;
  CUDA_ASSERT(cudaGetSymbolSize(&symbol_size, device_var));
  EXPECT_EQ(symbol_size, 4u);
  float host_var = 0;
  CUDA_ASSERT(cudaMemcpyFromSymbol(&host_var, device_var, sizeof(host_var)));
  EXPECT_EQ(host_var, 4.0f);
  host_var = 3.0f;
  CUDA_ASSERT(cudaMemcpyToSymbol(device_var, &host_var, sizeof(host_var)));
  float through_address = 0;
  CUDA_ASSERT(cudaMemcpy(&through_address, device_ptr, sizeof(float), cudaMemcpyDeviceToHost));
  EXPECT_EQ(through_address, 3.0f) << "read through the address from cudaGetSymbolAddress";
  host_var = 4.0f;  // leave the initial value for a later run in this process
  CUDA_ASSERT(cudaMemcpyToSymbol(device_var, &host_var, sizeof(host_var)));
}

__global__ void copy_written_from_host(float* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = written_from_host; }

RULE_F(DeviceVariable, MemcpyToSymbolIsSeenByEveryThread, "5.4.1.2",
       "a value copied to a __device__ variable with cudaMemcpyToSymbol is read by every thread of a later grid") {
  const float value = 3.0f;
  CUDA_ASSERT(cudaMemcpyToSymbol(written_from_host, &value, sizeof(value)));
  cuconform::DeviceBuffer<float> out(2 * 64);
  cuconform::launch(copy_written_from_host, 2, 64, out.get());
  EXPECT_TRUE(cuconform::ElementsEqual(out.to_host(), std::vector<float>(2 * 64, 3.0f)));
}

__global__ void write_device_variable() { written_by_kernel = 0xc0ffeeu; }

RULE_F(DeviceVariable, KernelWriteIsReadThroughTheSymbol, "5.4.1.2",
       "a value a kernel stores to a __device__ variable is read on the host with cudaMemcpyFromSymbol and through "
       "cudaGetSymbolAddress") {
  const unsigned zero = 0;
  CUDA_ASSERT(cudaMemcpyToSymbol(written_by_kernel, &zero, sizeof(zero)));
  cuconform::launch(write_device_variable, 1, 1);
  unsigned from_symbol = 0, through_address = 0;
  CUDA_ASSERT(cudaMemcpyFromSymbol(&from_symbol, written_by_kernel, sizeof(from_symbol)));
  EXPECT_EQ(from_symbol, 0xc0ffeeu);
  unsigned* address = nullptr;
  CUDA_ASSERT(cudaGetSymbolAddress((void**)&address, written_by_kernel));
  CUDA_ASSERT(cudaMemcpy(&through_address, address, sizeof(unsigned), cudaMemcpyDeviceToHost));
  EXPECT_EQ(through_address, 0xc0ffeeu);
}

__global__ void count_into_device_variable() { atomicAdd(&grid_counter, 1ull); }

RULE_F(DeviceVariable, SharedByEveryThreadOfTheGrid, "5.4.1.2",
       "a __device__ variable is one object for all the threads of the grid: every thread's increment lands in it") {
  const unsigned long long zero = 0;
  CUDA_ASSERT(cudaMemcpyToSymbol(grid_counter, &zero, sizeof(zero)));
  constexpr unsigned kBlocks = 40, kThreads = 96;
  cuconform::launch(count_into_device_variable, kBlocks, kThreads);
  unsigned long long count = 0;
  CUDA_ASSERT(cudaMemcpyFromSymbol(&count, grid_counter, sizeof(count)));
  EXPECT_EQ(count, kBlocks * kThreads);
}

__global__ void store_persisted(unsigned value) { persisted = value; }
__global__ void load_persisted(unsigned* out) { *out = persisted; }

RULE_F(DeviceVariable, KeepsItsValueAcrossLaunches, "5.4.1.2",
       "a __device__ variable has the lifetime of the program/context: a later grid reads what an earlier one stored") {
  cuconform::launch(store_persisted, 1, 1, 0x5eed0077u);
  cuconform::DeviceBuffer<unsigned> out(1);
  cuconform::launch(load_persisted, 1, 1, out.get());
  EXPECT_EQ(out.value_at(0), 0x5eed0077u);
}

__global__ void read_per_device_var(int* out) { *out = per_device_var; }

class DeviceVariableAcrossDevices : public cuconform::MultiGpuTest {};

RULE_F(DeviceVariableAcrossDevices, DistinctObjectPerDevice, "5.4.1.2",
       "a __device__ variable has a unique instance per device") {
  REQUIRE_DEVICE_COUNT(2);
  for (int device : {0, 1}) {
    CUDA_ASSERT(cudaSetDevice(device));
    const int value = 200 + device;
    CUDA_ASSERT(cudaMemcpyToSymbol(per_device_var, &value, sizeof(value)));
  }
  for (int device : {0, 1}) {
    CUDA_ASSERT(cudaSetDevice(device));
    cuconform::DeviceBuffer<int> out(1);
    cuconform::launch(read_per_device_var, 1, 1, out.get());
    EXPECT_EQ(out.value_at(0), 200 + device) << "device " << device;
  }
  CUDA_ASSERT(cudaSetDevice(cuconform::device().ordinal));
}

// ==================================================================================================================
// 5.4.1.2 Memory Space Specifiers (Table 39, __constant__) and 2.2.3.5 Constant Memory: __constant__ variables are
// readable by every thread of the grid, written from the host through the runtime, reachable through the symbol API,
// one object per device, alive as long as the CUDA context.
// ==================================================================================================================

__constant__ float constant_mem_var = 4.0f;  // the guide's example (5.4.1.2)
__constant__ float coeffs[4];                // the guide's example (2.2.3.5)
__constant__ float context_lifetime_var = 4.0f;
__constant__ int per_device_constant;

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
  EXPECT_TRUE(
      cuconform::ElementsEqual(std::vector<float>(copied, copied + 4), std::vector<float>(written, written + 4)));
  cuconform::DeviceBuffer<float> out(32);
  cuconform::launch(read_constant_everywhere<float>, 1, 32, address + 2, out.get());
  EXPECT_TRUE(cuconform::ElementsEqual(out.to_host(), std::vector<float>(32, 9.0f)));
}

__global__ void read_context_lifetime_var(float* out) { *out = context_lifetime_var; }

// A process of its own: cudaDeviceReset destroys the context every other rule of the process would share.
class ConstantMemoryContext : public cuconform::IsolatedGpuTest {};

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

__global__ void read_per_device_constant(int* out) { *out = per_device_constant; }

class ConstantMemoryAcrossDevices : public cuconform::MultiGpuTest {};

RULE_F(ConstantMemoryAcrossDevices, DistinctObjectPerDevice, "2.2.3.5",
       "a __constant__ variable has a distinct object per device") {
  REQUIRE_DEVICE_COUNT(2);
  for (int device : {0, 1}) {
    CUDA_ASSERT(cudaSetDevice(device));
    const int value = 100 + device;
    CUDA_ASSERT(cudaMemcpyToSymbol(per_device_constant, &value, sizeof(value)));
  }
  for (int device : {0, 1}) {
    CUDA_ASSERT(cudaSetDevice(device));
    cuconform::DeviceBuffer<int> out(1);
    cuconform::launch(read_per_device_constant, 1, 1, out.get());
    EXPECT_EQ(out.value_at(0), 100 + device) << "device " << device;
  }
  CUDA_ASSERT(cudaSetDevice(cuconform::device().ordinal));
}

}  // namespace
