// cudaStreamAddCallback (CUDA Runtime API 13.0): the callback the guide's asynchronous-deletion example relies on
// (PG12.9 6.2.8.7.4: the resource is deleted in a callback added after the work that uses it). The older form of
// cudaLaunchHostFunc (6.2.8.5.6, streams.cu): it runs once every command issued to the stream before it has
// completed, receives the stream, the status of that work and its userData, and blocks later work of the stream until
// it returns. Each kernel is one thread recording what it saw (ordering.h).
#include "cuconform/cuconform.h"
#include "ordering.h"

namespace streams {
namespace {

using namespace ordering;

class StreamCallback : public cuconform::GpuTest {};

// What the callback saw when it ran.
struct CallbackProbe {
  HostFlags* flags;  // [0]: written by the kernel issued before the callback
  cudaStream_t stream = nullptr;
  cudaError_t status = cudaErrorUnknown;
  int saw_flag = -1;
  int calls = 0;
};

void CUDART_CB record_arguments(cudaStream_t stream, cudaError_t status, void* data) {
  auto* probe = static_cast<CallbackProbe*>(data);
  probe->stream = stream;
  probe->status = status;
  probe->saw_flag = probe->flags->read(0);
  ++probe->calls;
}

RULE_F(StreamCallback, RunsAfterThePrecedingWorkWithTheStreamStatusAndUserData,
       "CUDA Runtime API 13.0 cudaStreamAddCallback",
       "a callback added with cudaStreamAddCallback runs once, after all work issued to the stream before it has "
       "completed, and receives the stream, cudaSuccess for that work, and its userData") {
  HostFlags flags(1);
  Stream stream;
  CallbackProbe probe{&flags};
  // 2 ms: a callback that did not wait for the kernel would run long before it writes.
  sleep_then_write<<<1, 1, 0, stream>>>(flags[0], 1, 2 * kMillisecond);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaStreamAddCallback(stream, record_arguments, &probe, 0));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  EXPECT_EQ(probe.calls, 1);
  EXPECT_EQ(probe.saw_flag, 1) << "the callback ran before the preceding kernel completed";
  EXPECT_EQ(probe.stream, static_cast<cudaStream_t>(stream)) << "the callback received another stream";
  EXPECT_EQ(probe.status, cudaSuccess) << cuconform::describe(probe.status);
}

void CUDART_CB sleep_then_raise(cudaStream_t, cudaError_t, void* data) {
  host_sleep_ms(3);
  static_cast<HostFlags*>(data)->raise(0);
}

RULE_F(StreamCallback, LaterWorkWaitsForTheCallbackToReturn, "CUDA Runtime API 13.0 cudaStreamAddCallback",
       "the callback blocks later work in the stream until it has finished") {
  HostFlags flags(1);
  cuconform::DeviceBuffer<Log> log(1);
  Stream stream;
  CUDA_ASSERT(cudaStreamAddCallback(stream, sleep_then_raise, &flags, 0));
  read_and_ticket<<<1, 1, 0, stream>>>(log.get(), 0, flags[0]);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  EXPECT_EQ(log.to_host()[0].op[0].saw, 1) << "the kernel after the callback started before the callback returned";
}

}  // namespace
}  // namespace streams
