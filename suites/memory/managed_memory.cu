// 5.4.1.2.2 __managed__ Memory and Table 39: one instance per program, accessible from host and device threads at
// the same address; the legal uses of the guide's example, each a rule. Small variables only (no oversubscription).
#include <cuconform/cuconform.h>

#include <type_traits>
#include <vector>

// clang 22 accepts __managed__ in CUDA mode with only "'managed' attribute ignored" (it implements the attribute for
// HIP): the variables would silently become plain __device__ (or host) variables. The rules are compiled out there.
#if CUCONFORM_CLANG_CUDA
#define CUCONFORM_HAS_MANAGED 0
#define SKIP_WITHOUT_MANAGED() SKIP_COMPILED_OUT("clang ignores __managed__ in CUDA mode ('managed' attribute ignored)")
#else
#define CUCONFORM_HAS_MANAGED 1
#define SKIP_WITHOUT_MANAGED() (void)0
#endif

namespace {

#if CUCONFORM_HAS_MANAGED
__device__ __managed__ int global_var = 10;  // the guide's example
__managed__ int never_written = 10;
__managed__ int per_program_var;

// Both addresses as the kernel sees them: the argument, and its own &global_var (the host compares them).
__global__ void record_addresses(int* ptr, unsigned long long* addresses) {
  addresses[0] = reinterpret_cast<unsigned long long>(ptr);
  addresses[1] = reinterpret_cast<unsigned long long>(&global_var);
}
__global__ void store_twenty() { global_var = 20; }
__global__ void load_global_var(int* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = global_var; }
__global__ void load_per_program_var(int* out) { *out = per_program_var; }
#endif

class ManagedVariable : public cuconform::GpuTest {};

RULE_F(ManagedVariable, InitializerIsVisibleOnTheHost, "5.4.1.2.2",
       "a __managed__ variable is accessible by host threads: the host reads its initial value") {
  SKIP_WITHOUT_MANAGED();
#if CUCONFORM_HAS_MANAGED
  EXPECT_EQ(never_written, 10);
#endif
}

RULE_F(ManagedVariable, HostAndDeviceSeeTheSameAddress, "5.4.1.2.2",
       "the host's &global_var passed to a kernel equals the kernel's &global_var (the guide's assert)") {
  SKIP_WITHOUT_MANAGED();
#if CUCONFORM_HAS_MANAGED
  int* ptr = &global_var;
  cuconform::DeviceBuffer<unsigned long long> addresses(2);
  cuconform::launch(record_addresses, 1, 1, ptr, addresses.get());
  const std::vector<unsigned long long> seen = addresses.to_host();
  const auto host_address = reinterpret_cast<unsigned long long>(ptr);
  EXPECT_EQ(seen[0], host_address) << "the argument as the kernel received it";
  EXPECT_EQ(seen[1], host_address) << "the kernel's &global_var";
#endif
}

RULE_F(ManagedVariable, DeviceStoreIsSeenByTheHostAfterSynchronize, "5.4.1.2.2",
       "a kernel's store to a __managed__ variable is read by the host after cudaDeviceSynchronize") {
  SKIP_WITHOUT_MANAGED();
#if CUCONFORM_HAS_MANAGED
  global_var = 10;
  store_twenty<<<1, 1>>>();
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_EQ(global_var, 20);
#endif
}

RULE_F(ManagedVariable, HostStoreIsSeenByLaterKernels, "5.4.1.2.2",
       "the host's update of a __managed__ variable (global_var++) is read by every thread of a later kernel") {
  SKIP_WITHOUT_MANAGED();
#if CUCONFORM_HAS_MANAGED
  global_var = 41;
  global_var++;
  cuconform::DeviceBuffer<int> out(2 * 32);
  cuconform::launch(load_global_var, 2, 32, out.get());
  EXPECT_TRUE(cuconform::ElementsEqual(out.to_host(), std::vector<int>(2 * 32, 42)));
#endif
}

RULE(ManagedVariableType, ParenthesizedDecltypeIsAReference, "5.4.1.2.2",
     "decltype((global_var)) of a __managed__ int is allowed and names int&") {
  SKIP_WITHOUT_MANAGED();
#if CUCONFORM_HAS_MANAGED
  EXPECT_TRUE((std::is_same_v<decltype((global_var)), int&>));
#endif
}

class ManagedVariableAcrossDevices : public cuconform::MultiGpuTest {};

RULE_F(ManagedVariableAcrossDevices, OneInstancePerProgram, "5.4.1.2",
       "a __managed__ variable has one instance per program: every device reads the value the host stored") {
  REQUIRE_DEVICE_COUNT(2);
  SKIP_WITHOUT_MANAGED();
#if CUCONFORM_HAS_MANAGED
  for (int device : {0, 1}) {
    int managed = 0;
    CUDA_ASSERT(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, device));
    if (!managed) GTEST_SKIP() << "device " << device << " does not support managed memory";
  }
  per_program_var = 31337;
  for (int device : {0, 1}) {
    CUDA_ASSERT(cudaSetDevice(device));
    cuconform::DeviceBuffer<int> out(1);
    cuconform::launch(load_per_program_var, 1, 1, out.get());
    EXPECT_EQ(out.value_at(0), 31337) << "device " << device;
  }
  CUDA_ASSERT(cudaSetDevice(cuconform::device().ordinal));
  CUDA_ASSERT(cudaSetDevice(cuconform::device().ordinal));
#endif
}

}  // namespace
