// Formatted output (PG12.9 10.35; the current guide's 5.4.10 no longer describes it): printf in device code is
// executed by every thread that reaches it; its output reaches the host's stdout when the buffer is flushed (at a
// kernel launch, a synchronization, a blocking memcpy, ...) and only then; it formats like the host C library's
// printf; it returns the number of arguments parsed; at most 32 arguments are used. Each rule captures the process's
// stdout around the launch and the flush and compares the text exactly.
#include <cuconform/cuconform.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "captured_stream.h"
#include "mapped_host_memory.h"

namespace {

using cuconform_functions::CapturedStream;
using cuconform_functions::lines_of;
using cuconform_functions::MappedHostArray;

std::string host_format(const char* format, ...) __attribute__((format(printf, 1, 2)));
std::string host_format(const char* format, ...) {
  char buffer[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  return buffer;
}

// ---- Who prints ---------------------------------------------------------------------------------------------------

// The guide's first example.
__global__ void helloCUDA(float f) { printf("Hello thread %d, f=%f\n", threadIdx.x, f); }

// The guide's second example.
__global__ void helloCUDAFirstThreadOnly(float f) {
  if (threadIdx.x == 0) printf("Hello thread %d, f=%f\n", threadIdx.x, f);
}

__global__ void print_block_and_thread(float f) { printf("block %d thread %d f=%f\n", blockIdx.x, threadIdx.x, f); }

class DevicePrintf : public cuconform::GpuTest {
 protected:
  // Launches the kernel, synchronizes, and returns what reached stdout meanwhile.
  template <class... Params, class... Args>
  std::string printed_by(void (*kernel)(Params...), dim3 grid, dim3 block, Args... args) {
    CapturedStream out(1);
    kernel<<<grid, block>>>(args...);
    const cudaError_t error = cudaDeviceSynchronize();
    const std::string text = out.stop();
    CUDA_CHECK(error);
    return text;
  }
};

RULE_F(DevicePrintf, EveryThreadThatCallsItPrints, "PG12.9 10.35",
       "printf is executed per thread: a kernel's output holds one formatted string for each thread that calls it") {
  const std::vector<std::string> lines = lines_of(printed_by(print_block_and_thread, 2, 5, 1.2345f));
  std::vector<std::string> expected;
  for (int b = 0; b < 2; ++b) {
    for (int t = 0; t < 5; ++t) expected.push_back(host_format("block %d thread %d f=%f", b, t, 1.2345f));
  }
  EXPECT_TRUE(cuconform::SameMultiset(lines, expected));
}

RULE_F(DevicePrintf, OnlyThreadsThatCallItPrint, "PG12.9 10.35",
       "in the guide's second example, where only thread 0 calls printf, the output is the single line of thread 0") {
  const std::vector<std::string> lines = lines_of(printed_by(helloCUDAFirstThreadOnly, 1, 5, 1.2345f));
  EXPECT_EQ(lines, std::vector<std::string>{host_format("Hello thread %d, f=%f", 0, 1.2345f)});
}

RULE_F(DevicePrintf, GuideExamplePrintsTheDocumentedOutput, "PG12.9 10.35",
       "the guide's helloCUDA<<<1, 5>>>(1.2345f) example prints 'Hello thread <i>, f=1.2345' once for each thread") {
  const std::vector<std::string> lines = lines_of(printed_by(helloCUDA, 1, 5, 1.2345f));
  std::vector<std::string> documented;
  for (int t = 0; t < 5; ++t) documented.push_back("Hello thread " + std::to_string(t) + ", f=1.2345");
  EXPECT_TRUE(cuconform::SameMultiset(lines, documented));
}

// ---- How it formats -----------------------------------------------------------------------------------------------

// Every flag ('#', '0', '+', '-', ' '), width ('*', digits), precision, size ('h', 'l', 'll') and type
// ("cdiouxXpeEfgGaAs") the guide lists, each line formatted by the device and by the host C library.
#define CUCONFORM_PRINTF_BATTERY(PRINT)                                                                        \
  PRINT("[%d|%i|%u|%o|%x|%X]\n", -42, 42, 42u, 42u, 0xbeefu, 0xbeefu)                                          \
  PRINT("[%c|%s|%5s|%-5s|%.2s]\n", 'Z', "text", "ab", "cd", "truncated")                                       \
  PRINT("[%e|%E|%f|%g|%G|%a|%A]\n", 1234.5678, -0.000123, 3.14159, 1e-5, 1e20, 1.0, -0.5)                      \
  PRINT("[%+d|%+d|% d|%05d|%-5d|%#o|%#x|%#X]\n", 7, -7, 7, 42, 42, 8u, 255u, 255u)                             \
  PRINT("[%*d|%-*d|%.3f|%10.4f|%.0f|%#.0f|%.2e|%.3g]\n", 6, 42, 6, 42, 2.0 / 3, -3.14159, 2.5, 3.0, 12345.678, \
        0.0001234)                                                                                             \
  PRINT("[%hd|%hu|%ld|%lu|%lld|%llu|%lx]\n", static_cast<short>(-5), static_cast<unsigned short>(65535),       \
        -1234567890123L, 1234567890123UL, LLONG_MIN, ULLONG_MAX, 0xfeedfacecafeUL)                             \
  PRINT("[%p|%f|%e|%%|%5.1f%%]\n", reinterpret_cast<void*>(0x1234), HUGE_VAL, -HUGE_VAL, 99.44)

#define CUCONFORM_DEVICE_PRINT(...) printf(__VA_ARGS__);
__global__ void print_battery() { CUCONFORM_PRINTF_BATTERY(CUCONFORM_DEVICE_PRINT) }
#undef CUCONFORM_DEVICE_PRINT

RULE_F(DevicePrintf, FormatsLikeTheHostCLibrary, "PG12.9 10.35.1",
       "device printf formats every supported flag, width, precision, size and type as the host C library's printf "
       "does") {
  std::string expected;
#define CUCONFORM_HOST_PRINT(...) expected += host_format(__VA_ARGS__);
  CUCONFORM_PRINTF_BATTERY(CUCONFORM_HOST_PRINT)
#undef CUCONFORM_HOST_PRINT
  EXPECT_EQ(printed_by(print_battery, 1, 1), expected);
}

// The 33rd specifier has no argument the device passes on: it is printed as it is.
__global__ void print_thirty_three_arguments() {
  printf("%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d\n", 1, 2,
         3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
         32, 33);
}

RULE_F(DevicePrintf, IgnoresArgumentsBeyondThirtyTwo, "PG12.9 10.35.2",
       "printf uses at most 32 arguments after the format: further arguments are ignored and their format "
       "specifiers are output as they are") {
  std::string expected;
  for (int i = 1; i <= 32; ++i) expected += std::to_string(i) + ",";
  expected += "%d\n";
  EXPECT_EQ(printed_by(print_thirty_three_arguments, 1, 1), expected);
}

// ---- What it returns ----------------------------------------------------------------------------------------------

__global__ void printf_return_values(int* returned) {
  returned[0] = printf("three: %d %d %d\n", 1, 2, 3);
  returned[1] = printf("five: %d %s %c %f %u\n", 1, "s", 'c', 1.5, 7u);
  returned[2] = printf("no arguments\n");
}

#if CUCONFORM_CLANG_CUDA
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wformat-security"
#endif
__global__ void printf_null_format(const char* null_format, int* returned) {
  *returned = printf(null_format);  // NULL on purpose
}
#if CUCONFORM_CLANG_CUDA
#pragma clang diagnostic pop
#endif

class DevicePrintfReturn : public DevicePrintf {
 protected:
  std::vector<int> returned() {
    cuconform::DeviceBuffer<int> values(3);
    printed_by(printf_return_values, 1, 1, values.get());
    return values.to_host();
  }
};

RULE_F(DevicePrintfReturn, ReturnsTheNumberOfArguments, "PG12.9 10.35",
       "device printf returns the number of arguments parsed, not the number of characters printed") {
  const std::vector<int> r = returned();
  EXPECT_EQ(r[0], 3);
  EXPECT_EQ(r[1], 5);
}

RULE_F(DevicePrintfReturn, ReturnsZeroWithoutArguments, "PG12.9 10.35",
       "device printf returns 0 when no arguments follow the format string") {
  EXPECT_EQ(returned()[2], 0);
}

RULE_F(DevicePrintfReturn, ReturnsMinusOneForANullFormat, "PG12.9 10.35",
       "device printf returns -1 when the format string is NULL") {
  cuconform::DeviceBuffer<int> value(1);
  printed_by(printf_null_format, 1, 1, static_cast<const char*>(nullptr), value.get());
  EXPECT_EQ(value.value_at(0), -1);
}

// ---- When the output appears --------------------------------------------------------------------------------------

constexpr const char* kFlushLine = "printed before the flush\n";

// Prints one line, then tells the host (through mapped memory) that it has.
__global__ void print_then_signal(volatile int* printed) {
  printf("printed before the flush\n");
  __threadfence_system();
  *printed = 1;
  __threadfence_system();
}

// Tells the host (through mapped memory) that this launch has started on the device.
__global__ void signal_started(volatile int* started) {
  *started = 1;
  __threadfence_system();
}

// Waits on the host, without any CUDA call, until a kernel has set flags[i] (printed, started).
::testing::AssertionResult WaitUntilSet(const MappedHostArray<int>& flags, std::size_t i) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (flags[i] == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      return ::testing::AssertionFailure() << "no kernel set flag " << i << " within 10 s";
    }
  }
  return ::testing::AssertionSuccess();
}

// Waits on the host, without any CUDA call, until the kernel has printed.
::testing::AssertionResult WaitUntilPrinted(const MappedHostArray<int>& printed) { return WaitUntilSet(printed, 0); }

class DevicePrintfFlush : public cuconform::GpuTest {};

RULE_F(DevicePrintfFlush, DeviceSynchronizeFlushes, "PG12.9 10.35.2",
       "the printf buffer is flushed to stdout by cudaDeviceSynchronize()") {
  MappedHostArray<int> printed(1);
  CapturedStream out(1);
  print_then_signal<<<1, 1>>>(printed.device());
  const cudaError_t error = cudaDeviceSynchronize();
  const std::string text = out.stop();
  CUDA_ASSERT(error);
  EXPECT_EQ(text, kFlushLine);
}

RULE_F(DevicePrintfFlush, StreamSynchronizeFlushes, "PG12.9 10.35.2",
       "the printf buffer is flushed to stdout by cudaStreamSynchronize()") {
  MappedHostArray<int> printed(1);
  cudaStream_t stream;
  CUDA_ASSERT(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CapturedStream out(1);
  print_then_signal<<<1, 1, 0, stream>>>(printed.device());
  const cudaError_t error = cudaStreamSynchronize(stream);
  const std::string text = out.stop();
  cudaStreamDestroy(stream);
  CUDA_ASSERT(error);
  EXPECT_EQ(text, kFlushLine);
}

RULE_F(DevicePrintfFlush, EventSynchronizeFlushes, "PG12.9 10.35.2",
       "the printf buffer is flushed to stdout by cudaEventSynchronize()") {
  MappedHostArray<int> printed(1);
  cudaEvent_t event;
  CUDA_ASSERT(cudaEventCreate(&event));
  CapturedStream out(1);
  print_then_signal<<<1, 1>>>(printed.device());
  cudaError_t error = cudaEventRecord(event);
  if (error == cudaSuccess) error = cudaEventSynchronize(event);
  const std::string text = out.stop();
  cudaEventDestroy(event);
  CUDA_ASSERT(error);
  EXPECT_EQ(text, kFlushLine);
}

RULE_F(DevicePrintfFlush, BlockingMemcpyFlushes, "PG12.9 10.35.2",
       "the printf buffer is flushed to stdout by a blocking cudaMemcpy()") {
  MappedHostArray<int> printed(1);
  cuconform::DeviceBuffer<int> source(1);
  int value = -1;
  CapturedStream out(1);
  print_then_signal<<<1, 1>>>(printed.device());
  const cudaError_t error = cudaMemcpy(&value, source.get(), sizeof value, cudaMemcpyDeviceToHost);
  const std::string text = out.stop();
  CUDA_ASSERT(error);
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_EQ(text, kFlushLine);
}

// How long the host waits after the kernel signalled that it printed, so that the kernel has also ended (its last
// instructions are a fence and the exit), without any CUDA call: the launch then follows a finished kernel, and
// nothing in the guide lets a flush skip the output of one.
constexpr auto kKernelEndGrace = std::chrono::milliseconds(5);

// "At the start of the launch": a launch returns before its kernel starts, so the output is looked for once the
// launched kernel has signalled that it runs (through mapped memory, no CUDA call).
RULE_F(DevicePrintfFlush, NextKernelLaunchFlushes, "PG12.9 10.35.2",
       "the printf buffer is flushed to stdout at the start of the next kernel launch") {
  MappedHostArray<int> flags(2);  // [0]: printed, [1]: the next kernel started
  CapturedStream out(1);
  print_then_signal<<<1, 1>>>(flags.device());
  const ::testing::AssertionResult printed = WaitUntilSet(flags, 0);
  std::this_thread::sleep_for(kKernelEndGrace);
  signal_started<<<1, 1>>>(flags.device() + 1);
  const ::testing::AssertionResult started = WaitUntilSet(flags, 1);
  const std::string text = out.stop();
  CUDA_ASSERT(cudaDeviceSynchronize());
  ASSERT_TRUE(printed);
  ASSERT_TRUE(started);
  EXPECT_EQ(text, kFlushLine) << "nothing on stdout when the next launch's kernel had started";
}

// "It is flushed only when one of these actions is performed": the host waits this long after the kernel printed,
// with no CUDA call, and the output must not have appeared. Long enough to see a flush that nothing asked for.
constexpr auto kNoFlushWait = std::chrono::milliseconds(500);

RULE_F(DevicePrintfFlush, NothingAppearsBeforeAFlush, "PG12.9 10.35.2",
       "the printf buffer is flushed only by the listed actions: printed output does not appear before one of them "
       "(here: within 500 ms without any CUDA call), and appears after it") {
  MappedHostArray<int> printed(1);
  CapturedStream before(1);
  print_then_signal<<<1, 1>>>(printed.device());
  const ::testing::AssertionResult waited = WaitUntilPrinted(printed);
  std::this_thread::sleep_for(kNoFlushWait);
  const std::string text_before = before.stop();
  CapturedStream after(1);
  const cudaError_t error = cudaDeviceSynchronize();
  const std::string text_after = after.stop();
  CUDA_ASSERT(error);
  ASSERT_TRUE(waited);
  EXPECT_EQ(text_before, "") << "output appeared before any flush";
  EXPECT_EQ(text_after, kFlushLine) << "the synchronization did not flush the line";
}

// ---- The buffer ---------------------------------------------------------------------------------------------------

constexpr std::size_t kDocumentedDefaultFifoBytes = 1 << 20;  // "default is 1 megabyte"

RULE_F(DevicePrintfFlush, DefaultBufferIsOneMegabyte, "PG12.9 10.35.3",
       "the printf buffer (cudaLimitPrintfFifoSize) is 1 megabyte by default") {
  std::size_t size = 0;
  CUDA_ASSERT(cudaDeviceGetLimit(&size, cudaLimitPrintfFifoSize));
  cuconform::record_metric("printf_fifo_bytes", static_cast<long long>(size));
  EXPECT_TRUE(size == kDocumentedDefaultFifoBytes || size == 1000000) << size << " bytes";
}

// Changing the buffer size must come before the process's first printf, so these rules run in processes of their own.
class DevicePrintfBuffer : public cuconform::IsolatedGpuTest {};

RULE_F(DevicePrintfBuffer, SetLimitSetsTheBufferSize, "PG12.9 10.35.3",
       "cudaDeviceSetLimit(cudaLimitPrintfFifoSize, size) sets the size cudaDeviceGetLimit then reports") {
  constexpr std::size_t kRequested = 4 << 20;
  CUDA_ASSERT(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, kRequested));
  std::size_t size = 0;
  CUDA_ASSERT(cudaDeviceGetLimit(&size, cudaLimitPrintfFifoSize));
  EXPECT_EQ(size, kRequested);
}

RULE_F(DevicePrintfBuffer, DeviceResetFlushes, "PG12.9 10.35.2",
       "the printf buffer is flushed to stdout when the context is destroyed with cudaDeviceReset()") {
  MappedHostArray<int> printed(1);  // freed by the reset; its destructor's error is ignored
  CapturedStream out(1);
  print_then_signal<<<1, 1>>>(printed.device());
  const ::testing::AssertionResult waited = WaitUntilPrinted(printed);
  const cudaError_t error = cudaDeviceReset();
  const std::string text = out.stop();
  CUDA_ASSERT(error);
  ASSERT_TRUE(waited);
  EXPECT_EQ(text, kFlushLine);
}

__global__ void print_numbered_lines(int count) {
  for (int i = 0; i < count; ++i) printf("record %d\n", i);
}

RULE_F(DevicePrintfBuffer, OverflowOverwritesOlderOutput, "PG12.9 10.35.2",
       "the printf buffer is circular: when a kernel prints more than it holds, older output is overwritten, so the "
       "newest lines are the ones that appear") {
  CUDA_ASSERT(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 64 << 10));
  std::size_t size = 0;
  CUDA_ASSERT(cudaDeviceGetLimit(&size, cudaLimitPrintfFifoSize));
  // Every record holds at least a format pointer and an argument: size / 8 of them overflow the buffer.
  const int count = static_cast<int>(size / 8);

  CapturedStream out(1);
  print_numbered_lines<<<1, 1>>>(count);
  const cudaError_t error = cudaDeviceSynchronize();
  const std::vector<std::string> lines = lines_of(out.stop());
  CUDA_ASSERT(error);

  std::vector<int> numbers;
  for (const std::string& line : lines) {
    int n = -1;
    char rest = 0;
    if (std::sscanf(line.c_str(), "record %d%c", &n, &rest) == 1) numbers.push_back(n);
  }
  cuconform::record_metric("lines_printed", static_cast<long long>(numbers.size()));
  cuconform::record_metric("first_line", static_cast<long long>(numbers.empty() ? -1 : numbers.front()));
  ASSERT_FALSE(numbers.empty());
  EXPECT_LT(numbers.size(), static_cast<std::size_t>(count)) << "the buffer did not overflow";
  EXPECT_EQ(*std::max_element(numbers.begin(), numbers.end()), count - 1) << "the newest line is missing";
  // Which lines survive is documented ("older output is overwritten"), the order in which they reach stdout is not:
  // compared as a set, the survivors must be the newest lines, count - n ... count - 1, each once.
  std::sort(numbers.begin(), numbers.end());
  const int oldest_expected = count - static_cast<int>(numbers.size());
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    ASSERT_EQ(numbers[i], oldest_expected + static_cast<int>(i))
        << "the " << numbers.size() << " lines that appeared are not the newest ones (" << oldest_expected << " to "
        << count - 1 << "): after sorting, position " << i << " holds line " << numbers[i];
  }
}

}  // namespace
