// PG12.9 6.2.11 Interprocess Communication, for events: an event created with cudaEventInterprocess, exported with
// cudaIpcGetEventHandle and opened in another process with cudaIpcOpenEventHandle is the same event there.
//
// The other process is this binary again, started with CUCONFORM_IPC_EVENT_CHILD=<handle in hex>: a static
// initializer sees the variable before GoogleTest starts, plays the child and exits, so the child is no test.
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cuconform/cuconform.h"
#include "ordering.h"

extern char** environ;

namespace streams {
namespace {

using namespace ordering;

constexpr const char* kChildVariable = "CUCONFORM_IPC_EVENT_CHILD";

std::string to_hex(const void* data, size_t size) {
  std::string hex;
  char byte[3];
  for (size_t i = 0; i < size; ++i) {
    std::snprintf(byte, sizeof byte, "%02x", static_cast<const unsigned char*>(data)[i]);
    hex += byte;
  }
  return hex;
}

bool from_hex(const char* hex, void* data, size_t size) {
  if (std::strlen(hex) != 2 * size) return false;
  for (size_t i = 0; i < size; ++i) {
    unsigned value = 0;
    if (std::sscanf(hex + 2 * i, "%2x", &value) != 1) return false;
    static_cast<unsigned char*>(data)[i] = static_cast<unsigned char>(value);
  }
  return true;
}

// The child: opens the event, reports cudaEventQuery while the parent's gate is closed ("query <code>"), then waits
// for the event in a stream of its own and reports that ("synced <code>").
int run_child(const char* hex) {
  cudaIpcEventHandle_t handle{};
  if (!from_hex(hex, &handle, sizeof handle)) return 3;
  cudaEvent_t event = nullptr;
  const cudaError_t opened = cudaIpcOpenEventHandle(&event, handle);
  if (opened != cudaSuccess) {
    std::printf("open %d\n", static_cast<int>(opened));
    std::fflush(stdout);  // std::_Exit does not flush
    return 4;
  }
  std::printf("query %d\n", static_cast<int>(cudaEventQuery(event)));
  std::fflush(stdout);
  cudaStream_t stream = nullptr;
  cudaError_t synced = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  if (synced == cudaSuccess) synced = cudaStreamWaitEvent(stream, event, 0);
  if (synced == cudaSuccess) synced = cudaStreamSynchronize(stream);
  std::printf("synced %d\n", static_cast<int>(synced));
  std::fflush(stdout);
  return 0;
}

[[maybe_unused]] const bool child_ran = [] {
  if (const char* hex = std::getenv(kChildVariable)) std::_Exit(run_child(hex));
  return false;
}();

// Reads one line from fd within timeout_ms; empty on timeout or end of file.
std::string read_line(int fd, int timeout_ms) {
  std::string line;
  char c;
  while (true) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, timeout_ms) <= 0) return line;
    if (read(fd, &c, 1) != 1 || c == '\n') return line;
    line += c;
  }
}

class InterprocessEvent : public cuconform::GpuTest {};

CHILD_PROCESS_RULE_F(
    InterprocessEvent, OpenedHandleRefersToTheSameEventInAnotherProcess, "PG12.9 6.2.11",
    "an event handle shared with cudaIpcGetEventHandle and opened with cudaIpcOpenEventHandle in another "
    "process refers to the same event: it is incomplete there while its work runs, and a wait on it ends when "
    "that work completes") {
  HostFlags flags(2);
  Stream stream;
  Event event(cudaEventDisableTiming | cudaEventInterprocess);
  // The gate stays closed until the child has reported its query: long enough for a process to start CUDA.
  gated_then_done<<<1, 1, 0, stream>>>(flags[0], flags[1], 20'000 * kMillisecond);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaEventRecord(event, stream));
  cudaIpcEventHandle_t handle{};
  const cudaError_t exported = cudaIpcGetEventHandle(&handle, event);
  if (exported != cudaSuccess) flags.raise(0);
  CUDA_ASSERT(exported);

  char self[4096];
  const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
  if (length <= 0) flags.raise(0);
  ASSERT_GT(length, 0);
  self[length] = '\0';
  const std::string variable = std::string(kChildVariable) + "=" + to_hex(&handle, sizeof handle);
  std::vector<char*> env;
  for (char** e = environ; *e; ++e) env.push_back(*e);
  env.push_back(const_cast<char*>(variable.c_str()));
  env.push_back(nullptr);
  int out[2];
  if (pipe(out) != 0) {
    flags.raise(0);
    FAIL() << "pipe: " << std::strerror(errno);
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, out[0]);
  char* argv[] = {self, nullptr};
  pid_t child = 0;
  const int spawned = posix_spawn(&child, self, &actions, nullptr, argv, env.data());
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  const std::string query = spawned == 0 ? read_line(out[0], 15'000) : "";
  flags.raise(0);
  const std::string synced = spawned == 0 ? read_line(out[0], 15'000) : "";
  close(out[0]);
  int status = -1;
  if (spawned == 0) {
    if (synced.empty()) kill(child, SIGKILL);  // it did not finish in 15 s: do not wait for it forever
    waitpid(child, &status, 0);
  }
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  ASSERT_EQ(spawned, 0) << "posix_spawn: " << std::strerror(spawned);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
  EXPECT_EQ(query, "query " + std::to_string(static_cast<int>(cudaErrorNotReady)))
      << "the child's cudaEventQuery while the parent's work ran (" << static_cast<int>(cudaErrorNotReady)
      << " is cudaErrorNotReady)";
  EXPECT_EQ(synced, "synced 0") << "the child's wait on the event";
  EXPECT_EQ(flags.read(1), 1) << "the parent's gated kernel timed out";
}

}  // namespace
}  // namespace streams
