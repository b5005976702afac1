// PG12.9 22: "CUDA_DEVICE_WAITS_ON_EXCEPTION: When set to 1, a CUDA application will halt when a device exception
// occurs, allowing a debugger to be attached". Runs itself twice, without and with the variable: a kernel stores to
// an unmapped address, the child prints what cudaDeviceSynchronize returned. Documented: without the variable
// cudaErrorIllegalAddress; with it the child halts (this waits 10 s for it, then kills it).
// Exit: 1 the child with the variable did not halt (the disagreement), 0 it halted, 2 error.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

__global__ void store_to_an_unmapped_address() { *reinterpret_cast<volatile int*>(0x10) = 1; }

int child() {
  store_to_an_unmapped_address<<<1, 1>>>();
  const cudaError_t launch = cudaGetLastError();
  const cudaError_t synchronize = cudaDeviceSynchronize();
  std::printf("  child: launch %d, cudaDeviceSynchronize %d (%s)\n", launch, synchronize,
              cudaGetErrorName(synchronize));
  return 0;
}

// Runs this program as the child with the variable set or not; returns true when it was still running after 10 s.
bool halted(const char* program, bool with_variable) {
  const pid_t pid = fork();
  if (pid < 0) std::exit(2);
  if (pid == 0) {
    if (with_variable) setenv("CUDA_DEVICE_WAITS_ON_EXCEPTION", "1", 1);
    else unsetenv("CUDA_DEVICE_WAITS_ON_EXCEPTION");
    execl(program, program, "--child", static_cast<char*>(nullptr));
    std::_Exit(2);
  }
  for (int tenth = 0; tenth < 100; ++tenth) {
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) return false;
    usleep(100000);
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  return true;
}

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--child") == 0) return child();
  std::printf("without CUDA_DEVICE_WAITS_ON_EXCEPTION:\n");
  std::fflush(stdout);
  const bool without = halted(argv[0], false);
  std::printf("  %s\nwith CUDA_DEVICE_WAITS_ON_EXCEPTION=1:\n", without ? "halted" : "ended");
  std::fflush(stdout);
  const bool with = halted(argv[0], true);
  std::printf("  %s\n", with ? "halted (as documented)" : "ended: the application went on after the exception");
  return with ? 0 : 1;
}
