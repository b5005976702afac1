// PG12.9 13.2.1.2, 13.3.1.3 and 13.3.2: device-side CUDA objects and the launch ABI. A stream created by one thread
// is usable by any thread of the grid; cudaStreamWaitEvent() orders two device-side streams; a kernel launched by
// hand through cudaGetParameterBuffer() and cudaLaunchDevice(), with the parameter buffer laid out as 13.3.2.2 says,
// receives its parameters. Every kernel records what it saw or what an API returned; the host judges.
#include "cdp.h"

#include <vector>

namespace cuconform::cdp {
namespace {

constexpr int kThreads = 128;

__global__ void write_marker(int* out, int marker) { *out = marker; }

__global__ void write_late(int* to, int offset) {
  spin_for(kDelayMicroseconds);
  to[threadIdx.x] = static_cast<int>(threadIdx.x) + offset;
}

__global__ void copy_values(const int* from, int* to) { to[threadIdx.x] = from[threadIdx.x]; }

// ---- 13.2.1.2: a stream is visible to every thread of the grid ----

// outcome: [0] block 0's cudaStreamCreateWithFlags, [1] block 1 saw the handle (1) or gave up after 1 s (0),
// [2] block 1's launch into that stream, [3] block 1's cudaStreamDestroy.
__global__ void block_zero_creates_block_one_launches(unsigned long long* handle, int* published, int* outcome,
                                                      int* child_out) {
  if (blockIdx.x == 0) {
    cudaStream_t stream;
    outcome[0] = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    *reinterpret_cast<volatile unsigned long long*>(handle) = reinterpret_cast<unsigned long long>(stream);
    __threadfence();
    atomicExch(published, 1);
    return;
  }
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  int seen = 0;
  do {
    seen = atomicAdd(published, 0);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (seen == 0 && now - start < 1'000'000'000ull);
  outcome[1] = seen;
  if (seen == 0) return;
  __threadfence();
  cudaStream_t stream = reinterpret_cast<cudaStream_t>(*reinterpret_cast<volatile unsigned long long*>(handle));
  write_marker<<<1, 1, 0, stream>>>(child_out, 77);
  outcome[2] = cudaGetLastError();
  outcome[3] = cudaStreamDestroy(stream);
}

RULE_F(DynamicParallelism, StreamCreatedByOneThreadIsUsableByAnotherThreadOfTheGrid, "PG12.9 13.2.1.2",
       "on the device, CUDA objects are visible to all threads in a grid: a stream created by one thread may be "
       "used by any other thread in the grid") {
  DeviceBuffer<unsigned long long> handle(1);
  DeviceBuffer<int> published(1), outcome(std::vector<int>(4, -1)), child_out(1);
  launch(block_zero_creates_block_one_launches, 2, 1, handle.get(), published.get(), outcome.get(), child_out.get());
  const std::vector<int> seen = outcome.to_host();
  EXPECT_EQ(seen[0], cudaSuccess) << "cudaStreamCreateWithFlags in block 0";
  ASSERT_EQ(seen[1], 1) << "block 1 never saw block 0 publish the stream";
  EXPECT_EQ(seen[2], cudaSuccess) << "block 1's launch into block 0's stream";
  EXPECT_EQ(seen[3], cudaSuccess) << "block 1's cudaStreamDestroy of block 0's stream";
  EXPECT_EQ(child_out.to_host()[0], 77) << "the child launched into the shared stream did not run";
}

// ---- 13.3.1.3: cudaStreamWaitEvent orders device-side streams ----

// errors: [0] [1] the two streams, [2] the event, [3] cudaEventRecord, [4] cudaStreamWaitEvent, [5] the launches.
__global__ void second_stream_waits_on_an_event(int* data, int* seen, int* errors) {
  cudaStream_t first, second;
  cudaEvent_t event;
  errors[0] = cudaStreamCreateWithFlags(&first, cudaStreamNonBlocking);
  errors[1] = cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking);
  errors[2] = cudaEventCreateWithFlags(&event, cudaEventDisableTiming);
  if (errors[0] != cudaSuccess || errors[1] != cudaSuccess || errors[2] != cudaSuccess) return;
  write_late<<<1, kThreads, 0, first>>>(data, 11);
  errors[3] = cudaEventRecord(event, first);
  errors[4] = cudaStreamWaitEvent(second, event, 0);
  copy_values<<<1, kThreads, 0, second>>>(data, seen);
  errors[5] = cudaGetLastError();
  cudaEventDestroy(event);
  cudaStreamDestroy(first);
  cudaStreamDestroy(second);
}

RULE_F(DynamicParallelism, StreamWaitEventOrdersDeviceSideStreams, "PG12.9 13.3.1.3",
       "the inter-stream synchronization of events is supported on the device: after cudaStreamWaitEvent() on an "
       "event created with cudaEventDisableTiming, a stream's later work waits for the work recorded before it") {
  DeviceBuffer<int> data(kThreads), seen(kThreads), errors(std::vector<int>(6, -1));
  launch(second_stream_waits_on_an_event, 1, 1, data.get(), seen.get(), errors.get());
  const std::vector<int> codes = errors.to_host();
  const char* what[] = {"first cudaStreamCreateWithFlags",
                        "second cudaStreamCreateWithFlags",
                        "cudaEventCreateWithFlags",
                        "cudaEventRecord",
                        "cudaStreamWaitEvent",
                        "the launches"};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(codes[i], cudaSuccess) << what[i];
  std::vector<int> expected(kThreads);
  for (int i = 0; i < kThreads; ++i) expected[i] = i + 11;
  EXPECT_EQ(seen.to_host(), expected) << "the waiting stream's kernel read the data before the first stream wrote it";
}

// ---- 13.3.2: launching through cudaGetParameterBuffer() and cudaLaunchDevice() ----

// Parameters of sizes 1, 8, 2 and 4: 13.3.2.2 puts them at offsets 0, 8, 16 and 20.
__global__ void child_reports_parameters(char c, int* out, short s, int i) {
  out[0] = c;
  out[1] = s;
  out[2] = i;
}

constexpr std::size_t kParameterBytes = 24;

// out: [0] [1] [2] what the child received; launched: [0] the buffer's address modulo 64, [1] cudaLaunchDevice.
__global__ void launch_by_hand(int* out, unsigned long long* launched) {
  void* buffer = cudaGetParameterBuffer(64, kParameterBytes);
  launched[0] = reinterpret_cast<unsigned long long>(buffer) % 64;
  if (!buffer) {
    launched[1] = ~0ull;
    return;
  }
  char* bytes = static_cast<char*>(buffer);
  *reinterpret_cast<char*>(bytes + 0) = 'c';
  *reinterpret_cast<int**>(bytes + 8) = out;
  *reinterpret_cast<short*>(bytes + 16) = -1234;
  *reinterpret_cast<int*>(bytes + 20) = 1 << 30;
  launched[1] = cudaLaunchDevice(reinterpret_cast<void*>(child_reports_parameters), buffer, dim3(1), dim3(1), 0, 0);
}

// The guide: "the parameter buffer returned by cudaGetParameterBuffer() is always guaranteed to be 64-byte aligned,
// and the alignment requirement parameter is ignored"; the kernel asks for 64 anyway.
RULE_F(DynamicParallelism, ParameterBufferIs64ByteAligned, "PG12.9 13.3.2.1",
       "the parameter buffer returned by cudaGetParameterBuffer() is always 64-byte aligned") {
  DeviceBuffer<int> out(3);
  DeviceBuffer<unsigned long long> launched(std::vector<unsigned long long>(2, ~0ull));
  launch(launch_by_hand, 1, 1, out.get(), launched.get());
  EXPECT_EQ(launched.to_host()[0], 0u) << "the buffer's address modulo 64";
}

RULE_F(DynamicParallelism, LaunchDeviceRunsAKernelWithAHandFilledParameterBuffer, "PG12.9 13.3.2.2",
       "a kernel launched with cudaLaunchDevice() receives the parameters placed in its buffer in order, each at the "
       "smallest multiple of its size not before the end of the previous one") {
  DeviceBuffer<int> out(std::vector<int>(3, 0));
  DeviceBuffer<unsigned long long> launched(std::vector<unsigned long long>(2, ~0ull));
  launch(launch_by_hand, 1, 1, out.get(), launched.get());
  EXPECT_EQ(launched.to_host()[1], static_cast<unsigned long long>(cudaSuccess)) << "cudaLaunchDevice's result";
  EXPECT_EQ(out.to_host(), (std::vector<int>{'c', -1234, 1 << 30})) << "the child's (char, short, int) parameters";
}

}  // namespace
}  // namespace cuconform::cdp
