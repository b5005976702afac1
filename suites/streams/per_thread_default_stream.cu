// PG12.9 6.2.8.5.2 Default Stream, compiled with --default-stream per-thread (binary cuconform-streams-per-thread):
// the default stream is a regular stream, one per host thread.
#include <atomic>
#include <thread>

#include "cuconform/cuconform.h"
#include "ordering.h"

#ifndef CUDA_API_PER_THREAD_DEFAULT_STREAM
#error "cuconform-streams-per-thread must be compiled with --default-stream per-thread"
#endif

namespace streams {
namespace {

using namespace ordering;

class PerThreadDefaultStream : public cuconform::GpuTest {};
class PerThreadDefaultStreamConcurrency : public cuconform::GpuTest {};  // flag-based, like ImplicitSync

RULE_F(PerThreadDefaultStream, ExecutesInIssueOrder, "PG12.9 6.2.8.5.2",
       "with --default-stream per-thread, commands issued to stream 0 still execute in order") {
  constexpr int kOps = 4;
  cuconform::DeviceBuffer<Log> log(1);
  for (int op = 0; op < kOps; ++op) ticket_after<<<1, 1>>>(log.get(), op, (kOps - op) * 150'000ull);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaStreamSynchronize(0));
  const Log seen = log.to_host()[0];
  for (int op = 0; op < kOps; ++op) EXPECT_EQ(seen.op[op].ticket, static_cast<unsigned>(op)) << "op " << op;
}

RULE_F(PerThreadDefaultStreamConcurrency, DoesNotSynchronizeWithOtherBlockingStreams, "PG12.9 6.2.8.5.2",
       "with --default-stream per-thread the default stream is a regular stream: work in a blocking stream does not "
       "wait for it") {
  REQUIRE_ATTRIBUTE(cudaDevAttrConcurrentKernels, "concurrent kernel execution");
  cuconform::DeviceBuffer<Log> log(1);
  cuconform::DeviceBuffer<int> flag(1);
  Stream blocking;
  preload_probe_kernels();  // no lazy loading behind the waiting kernel (PG12.9 25.5.1)
  // Under the legacy NULL stream the blocking stream's kernel would wait for this one, which would time out.
  ticket_after_flag<<<1, 1>>>(log.get(), 0, flag.get(), kGateTimeout);
  set_flag_and_ticket<<<1, 1, 0, blocking>>>(log.get(), 1, flag.get(), flag.get());
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_EQ(log.to_host()[0].op[0].saw, 1) << "the default-stream kernel timed out: the blocking stream's kernel "
                                              "was ordered after it";
}

RULE_F(PerThreadDefaultStreamConcurrency, EachHostThreadHasItsOwnDefaultStream, "PG12.9 6.2.8.5.2",
       "with --default-stream per-thread each host thread has its own default stream") {
  REQUIRE_ATTRIBUTE(cudaDevAttrConcurrentKernels, "concurrent kernel execution");
  cuconform::DeviceBuffer<Log> log(1);
  cuconform::DeviceBuffer<int> flag(1);
  cudaError_t waiter_error = cudaErrorUnknown, setter_error = cudaErrorUnknown;
  std::atomic<int> step{0};
  preload_probe_kernels();  // no lazy loading behind the waiting kernel (PG12.9 25.5.1)
  // The waiting thread stays alive until its kernel completed, so that its default stream outlives the kernel.
  std::thread waiter([&] {
    ticket_after_flag<<<1, 1>>>(log.get(), 0, flag.get(), kGateTimeout);
    waiter_error = cudaGetLastError();
    step = 1;
    cudaStreamSynchronize(0);
  });
  while (step.load() == 0) host_sleep_ms(1);  // the waiting kernel is enqueued before the other thread issues
  std::thread setter([&] {
    set_flag_and_ticket<<<1, 1>>>(log.get(), 1, flag.get(), flag.get());
    setter_error = cudaGetLastError();
    cudaStreamSynchronize(0);
  });
  setter.join();
  waiter.join();
  CUDA_EXPECT(waiter_error);
  CUDA_EXPECT(setter_error);
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_EQ(log.to_host()[0].op[0].saw, 1) << "the first thread's default-stream kernel timed out: the second "
                                              "thread's default stream was ordered after it";
}

__global__ void write_one(int* out) { *out = 1; }

RULE_F(PerThreadDefaultStream, CanBeCaptured, "PG12.9 6.2.8.7.3",
       "stream capture can be used on cudaStreamPerThread, which stream 0 is under --default-stream per-thread") {
  cuconform::DeviceBuffer<int> out(1);
  for (cudaStream_t stream : {cudaStream_t{0}, cudaStreamPerThread}) {
    SCOPED_TRACE(stream == 0 ? "stream 0" : "cudaStreamPerThread");
    CUDA_ASSERT(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    write_one<<<1, 1, 0, stream>>>(out.get());
    CUDA_EXPECT(cudaGetLastError());
    cudaGraph_t graph = nullptr;
    CUDA_ASSERT(cudaStreamEndCapture(stream, &graph));
    ASSERT_NE(graph, nullptr);
    size_t nodes = 0;
    CUDA_EXPECT(cudaGraphGetNodes(graph, nullptr, &nodes));
    EXPECT_EQ(nodes, 1u);
    CUDA_EXPECT(cudaGraphDestroy(graph));
  }
}

}  // namespace
}  // namespace streams
