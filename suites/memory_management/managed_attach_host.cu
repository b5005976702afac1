// PG12.9 24.3.2.4: managed memory attached to the host (cudaMemAttachHost). An allocation made with that flag is
// usable from the host at once, even while a kernel runs (24.3.2.4.1); cudaStreamAttachMemAsync(..., cudaMemAttachHost)
// associates memory with no stream, so the host may use it while a kernel runs (24.3.2.4.4); and the guide's
// multithreaded pattern, a host-attached allocation then attached to the thread's own stream, computes its result
// (24.3.2.4.5). "While a kernel runs" is observed, not assumed: the kernel waits for a gate the host opens only after
// its accesses, and reports whether it was still waiting; the host starts its accesses only once the kernel says it
// waits. Every allocation is 256 KiB.
#include <chrono>
#include <thread>

#include "memory_common.cuh"

namespace cuconform::memory_management {
namespace {

constexpr std::size_t kCount = 1 << 16;
constexpr std::size_t kBytes = kCount * sizeof(int);
constexpr unsigned long long kGateTimeoutNs = 2'000'000'000ull;

// Raises `started`, waits until the host opens the gate (at most 2 s of %globaltimer), then reports 1 if its poll saw
// the gate open, 2 if it gave up (issue 34: reading the gate once more after the loop hid a poll that never looked).
__global__ void wait_for_gate(const volatile int* gate, volatile int* started, volatile int* done) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  *started = 1;
  int seen = 0;
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    seen = *gate;
  } while (seen == 0 && now - start < kGateTimeoutNs);
  __threadfence_system();
  *done = seen != 0 ? 1 : 2;
}

// data[i] = in[i] * factor
__global__ void transform(const int* in, int* data, std::size_t count, int factor) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    data[i] = in[i] * factor;
}

// out[i] += data[i]
__global__ void convert(int* out, const int* data, std::size_t count) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    out[i] += data[i];
}

// Pinned, mapped host words: [0] the gate, [1] what the gated kernel reported, [2] whether it has started waiting.
class Gate {
 public:
  Gate() {
    void* memory = nullptr;
    CUDA_CHECK(cudaHostAlloc(&memory, 3 * sizeof(int), cudaHostAllocMapped));
    words_ = static_cast<int*>(memory);
    words_[0] = words_[1] = words_[2] = 0;
  }
  Gate(const Gate&) = delete;
  Gate& operator=(const Gate&) = delete;
  ~Gate() { cudaFreeHost(const_cast<int*>(words_)); }
  // Launches the gated kernel and returns once it waits (a rule's "while a kernel runs" then holds), at most 2 s.
  void launch_waiter(cudaStream_t stream) {
    wait_for_gate<<<1, 1, 0, stream>>>(words_, words_ + 2, words_ + 1);
    CUDA_CHECK(cudaGetLastError());
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::nanoseconds(kGateTimeoutNs);
    while (words_[2] == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        ADD_FAILURE() << "the gated kernel did not start within 2 s";
        return;
      }
      std::this_thread::yield();
    }
  }
  void open() { words_[0] = 1; }
  int kernel_report() const { return words_[1]; }  // 0 while it waits

 private:
  volatile int* words_ = nullptr;
};

class ManagedAttachHost : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped()) return;
    REQUIRE_ATTRIBUTE(cudaDevAttrManagedMemory, "CUDA managed memory");
  }
};

struct ManagedHost {
  ManagedHost() { CUDA_CHECK(cudaMallocManaged(reinterpret_cast<void**>(&data), kBytes, cudaMemAttachHost)); }
  ManagedHost(const ManagedHost&) = delete;
  ManagedHost& operator=(const ManagedHost&) = delete;
  ~ManagedHost() { cudaFree(data); }
  int* data = nullptr;
};

// Writes pattern(kCount, seed) from the host and reads it back; the number of words that read back wrong.
std::size_t host_round_trip(int* data, int seed) {
  for (std::size_t i = 0; i < kCount; ++i) data[i] = seed + static_cast<int>(i);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < kCount; ++i) wrong += data[i] != seed + static_cast<int>(i);
  return wrong;
}

RULE_F(ManagedAttachHost, AllocationMadeWhileAKernelRunsIsUsableFromTheHostAtOnce, "PG12.9 24.3.2.4.1",
       "memory allocated by cudaMallocManaged with cudaMemAttachHost while the GPU is active is usable from the "
       "host at once, without waiting for more work or a synchronization") {
  Gate gate;
  Stream stream;
  gate.launch_waiter(stream);
  std::size_t wrong = kCount;
  int report_during = -1;
  {
    ManagedHost memory;  // allocated while the gated kernel waits
    wrong = host_round_trip(memory.data, 11);
    report_during = gate.kernel_report();
    gate.open();
    CUDA_ASSERT(cudaStreamSynchronize(stream));
  }
  EXPECT_EQ(report_during, 0) << "the kernel was no longer running when the host used the memory";
  EXPECT_EQ(gate.kernel_report(), 1) << "the gated kernel gave up before the host opened the gate";
  EXPECT_EQ(wrong, 0u) << "words of the host-attached allocation did not read back as written";
}

RULE_F(ManagedAttachHost, HostAttachedMemoryIsUsableFromTheHostWhileAKernelRuns, "PG12.9 24.3.2.4.4",
       "after cudaStreamAttachMemAsync(stream, ptr, 0, cudaMemAttachHost) the memory is associated with no stream "
       "and the host may use it while a kernel launched into that stream runs") {
  ManagedHost memory;
  Gate gate;
  Stream stream;
  // The guide's example attaches a default (global) allocation; this one starts host-attached and is attached to
  // the stream first, then back to the host, so that the call under test changes its association.
  CUDA_ASSERT(cudaStreamAttachMemAsync(stream, memory.data, 0, cudaMemAttachSingle));
  CUDA_ASSERT(cudaStreamAttachMemAsync(stream, memory.data, 0, cudaMemAttachHost));
  CUDA_ASSERT(cudaDeviceSynchronize());  // "wait for host attachment to occur"
  gate.launch_waiter(stream);
  const std::size_t wrong = host_round_trip(memory.data, 20);
  const int report_during = gate.kernel_report();
  gate.open();
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  EXPECT_EQ(report_during, 0) << "the kernel was no longer running when the host used the memory";
  EXPECT_EQ(gate.kernel_report(), 1) << "the gated kernel gave up before the host opened the gate";
  EXPECT_EQ(wrong, 0u) << "words of the host-attached memory did not read back as written";
}

RULE_F(ManagedAttachHost, GuideTaskPatternComputesItsResult, "PG12.9 24.3.2.4.5",
       "the guide's run_task: cudaMallocManaged(..., cudaMemAttachHost), cudaStreamAttachMemAsync(stream, data), "
       "then kernels in the stream and host processing in turn, with a stream synchronization between, use the "
       "data from both sides") {
  constexpr int kRounds = 3;
  DeviceBuffer<int> in(pattern(kCount, 1));
  DeviceBuffer<int> out(kCount);
  ManagedHost data;
  Stream stream;
  CUDA_ASSERT(cudaStreamAttachMemAsync(stream, data.data));  // length 0, cudaMemAttachSingle: the defaults
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  for (int round = 0; round < kRounds; ++round) {
    transform<<<64, 256, 0, stream>>>(in.get(), data.data, kCount, round + 2);
    CUDA_ASSERT(cudaGetLastError());
    CUDA_ASSERT(cudaStreamSynchronize(stream));
    for (std::size_t i = 0; i < kCount; ++i) data.data[i] += 1;  // host_process: the CPU uses the managed data
    convert<<<64, 256, 0, stream>>>(out.get(), data.data, kCount);
    CUDA_ASSERT(cudaGetLastError());
  }
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  // out[i] = sum over rounds of (in[i] * (round + 2) + 1), with in[i] = 1 + i.
  std::vector<int> expected(kCount);
  for (std::size_t i = 0; i < kCount; ++i) {
    int sum = 0;
    for (int round = 0; round < kRounds; ++round) sum += (1 + static_cast<int>(i)) * (round + 2) + 1;
    expected[i] = sum;
  }
  EXPECT_TRUE(ElementsEqual(out.to_host(), expected));
}

}  // namespace
}  // namespace cuconform::memory_management
