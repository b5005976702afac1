// PG12.9 6.2.8.7.3.3 Invalidation, with the codes the Runtime API reference gives it: after an invalid operation
// the capture sequence is invalidated; cudaStreamIsCapturing() reports cudaStreamCaptureStatusInvalidated ("part of a
// capture sequence that has been invalidated, but not terminated"), further use of the stream returns
// cudaErrorStreamCaptureInvalidated ("the current capture sequence on the stream has been invalidated due to a
// previous error"), and so does cudaStreamEndCapture(), with a NULL graph. capture.cu checks the guide's words (an
// error, whichever); this rule checks the documented codes.
#include "cuconform/cuconform.h"
#include "graph_util.h"

namespace graphs {
namespace {

using namespace ordering;

class CaptureInvalidation : public cuconform::GpuTest {};

__global__ void write_value(int* out, int value) { *out = value; }

RULE_F(CaptureInvalidation, InvalidatedCaptureReportsStreamCaptureInvalidated, "PG12.9 6.2.8.7.3.3",
       "after an invalid operation the stream's capture status is cudaStreamCaptureStatusInvalidated, a launch into "
       "it and cudaStreamEndCapture() return cudaErrorStreamCaptureInvalidated, and the graph is NULL (codes of the "
       "Runtime API reference)") {
  cuconform::DeviceBuffer<int> device(1);
  Stream stream;
  CUDA_ASSERT(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  write_value<<<1, 1, 0, stream>>>(device.get(), 1);
  CUDA_EXPECT(cudaGetLastError());
  cudaStreamCaptureStatus before = cudaStreamCaptureStatusNone;
  CUDA_EXPECT(cudaStreamIsCapturing(stream, &before));
  const cudaError_t invalid = cudaStreamSynchronize(stream);  // prohibited during capture (6.2.8.7.3.2)
  cudaGetLastError();
  cudaStreamCaptureStatus after = cudaStreamCaptureStatusNone;
  const cudaError_t queried = cudaStreamIsCapturing(stream, &after);
  cudaGetLastError();
  write_value<<<1, 1, 0, stream>>>(device.get(), 2);
  const cudaError_t launch = cudaGetLastError();
  cudaGraph_t graph = nullptr;
  const cudaError_t ended = cudaStreamEndCapture(stream, &graph);
  cudaGetLastError();
  if (graph) cudaGraphDestroy(graph);
  CUDA_EXPECT(cudaDeviceSynchronize());
  cuconform::record_metric("invalid_operation_error", cuconform::describe(invalid));
  EXPECT_EQ(before, cudaStreamCaptureStatusActive) << "the capture was not active before the invalid operation";
  EXPECT_NE(invalid, cudaSuccess) << "cudaStreamSynchronize of a capturing stream succeeded";
  CUDA_EXPECT(queried);
  EXPECT_EQ(after, cudaStreamCaptureStatusInvalidated) << "status " << static_cast<int>(after);
  EXPECT_EQ(launch, cudaErrorStreamCaptureInvalidated) << cuconform::describe(launch);
  EXPECT_EQ(ended, cudaErrorStreamCaptureInvalidated) << cuconform::describe(ended);
  EXPECT_EQ(graph, nullptr);
  cudaStreamCaptureStatus ended_status = cudaStreamCaptureStatusActive;
  CUDA_EXPECT(cudaStreamIsCapturing(stream, &ended_status));
  EXPECT_EQ(ended_status, cudaStreamCaptureStatusNone) << "the stream is still in capture mode";
}

}  // namespace
}  // namespace graphs
