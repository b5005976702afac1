// PG12.9 10.35.2: the printf buffer is flushed "prior to executing a stream callback added by cudaStreamAddCallback
// or cuStreamAddCallback". A kernel prints one line; a callback added behind it looks at what stdout (captured into a
// file) holds when it starts: the line must already be there. The callback makes no CUDA call; it flushes the host's
// stdio buffer of stdout and reads the size of the file behind file descriptor 1.
//
// The H100's driver also flushes on its own, about 70 ms after a print (FINDINGS.md, "output reaches stdout without
// any of the listed flush actions"); the callback runs as soon as the kernel has completed, well inside that time.
#include <cuconform/cuconform.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "captured_stream.h"

namespace {

using cuconform_functions::CapturedStream;

constexpr const char* kLine = "printed before the callback\n";

__global__ void print_line() { printf("printed before the callback\n"); }

// Bytes on stdout when the callback started (-1: it did not run).
void CUDART_CB measure_stdout(cudaStream_t, cudaError_t, void* data) {
  std::fflush(stdout);
  struct stat info{};
  *static_cast<long long*>(data) = ::fstat(1, &info) == 0 ? static_cast<long long>(info.st_size) : -2;
}

class DevicePrintfCallbackFlush : public cuconform::GpuTest {};

RULE_F(DevicePrintfCallbackFlush, BufferIsFlushedBeforeAStreamCallbackRuns, "PG12.9 10.35.2",
       "the printf buffer is flushed to stdout before a stream callback added by cudaStreamAddCallback() executes: "
       "the callback finds the line printed by the kernel before it already on stdout") {
  cudaStream_t stream;
  CUDA_ASSERT(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  long long bytes_at_callback = -1;
  CapturedStream out(1);
  print_line<<<1, 1, 0, stream>>>();
  cudaError_t error = cudaGetLastError();
  if (error == cudaSuccess) error = cudaStreamAddCallback(stream, measure_stdout, &bytes_at_callback, 0);
  if (error == cudaSuccess) error = cudaStreamSynchronize(stream);
  const std::string text = out.stop();
  cudaStreamDestroy(stream);
  CUDA_ASSERT(error);
  EXPECT_EQ(text, kLine) << "the synchronization after the callback did not bring the line";
  EXPECT_EQ(bytes_at_callback, static_cast<long long>(std::strlen(kLine)))
      << "stdout held " << bytes_at_callback << " bytes when the callback started (-1: it never ran)";
}

}  // namespace
