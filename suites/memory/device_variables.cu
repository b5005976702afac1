// 5.4.1.2 Memory Space Specifiers (Table 39, __device__): a __device__ variable lives in global memory, is reachable
// by every thread of the grid and through the runtime symbol API, lives as long as the program/context (across
// launches) and has one instance per device. The guide's example is the first rule.
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

RULE_F(DeviceVariable, DistinctObjectPerDevice, "5.4.1.2", "a __device__ variable has a unique instance per device") {
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

}  // namespace
