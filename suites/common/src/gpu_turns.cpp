#include "cuconform/gpu_turns.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cuconform {
namespace {

constexpr long kPollNs = 50'000;       // how often a waiting process looks at the lease
constexpr long kStepAsideNs = 150'000;  // a process that just gave its turn back waits this long for the others
constexpr off_t kFileSize = 64;

std::uint64_t now_ns() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);  // one clock for every process of the machine
  return std::uint64_t(t.tv_sec) * 1'000'000'000u + std::uint64_t(t.tv_nsec);
}

void pause_ns(long ns) {
  timespec t{0, ns};
  nanosleep(&t, nullptr);
}

std::uint64_t lease_from_environment() {
  const char* text = std::getenv("CUCONFORM_GPU_TURN_MS");
  const long ms = text ? std::strtol(text, nullptr, 10) : 0;
  return std::uint64_t(ms > 0 ? ms : 20) * 1'000'000u;
}

}  // namespace

GpuTurns* GpuTurns::from_environment() {
  const char* path = std::getenv("CUCONFORM_GPU_TURNS");
  if (!path || !*path) return nullptr;
  const int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  struct stat status {};
  void* mapped = MAP_FAILED;
  if (fd >= 0 && fstat(fd, &status) == 0 && (status.st_size >= kFileSize || ftruncate(fd, kFileSize) == 0)) {
    mapped = mmap(nullptr, kFileSize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  }
  const int error = errno;
  if (fd >= 0) close(fd);  // the mapping stays
  if (mapped == MAP_FAILED) {
    std::fprintf(stderr, "cuconform: CUCONFORM_GPU_TURNS=%s: %s; running without turns\n", path, std::strerror(error));
    return nullptr;
  }
  static_assert(std::atomic<std::uint64_t>::is_always_lock_free && std::atomic<std::uint32_t>::is_always_lock_free);
  return new GpuTurns(static_cast<Shared*>(mapped), lease_from_environment());  // zero-filled: nobody holds a turn
}

void GpuTurns::take() {
  if (held_until_ns_ != 0) return;
  if (just_gave_back_ && shared_->waiting.load() > 0) pause_ns(kStepAsideNs);
  just_gave_back_ = false;
  shared_->waiting.fetch_add(1);
  for (;;) {
    const std::uint64_t now = now_ns();
    std::uint64_t lease_end = shared_->lease_end_ns.load();
    if (lease_end <= now && shared_->lease_end_ns.compare_exchange_strong(lease_end, now + lease_ns_)) {
      held_until_ns_ = now + lease_ns_;
      break;
    }
    pause_ns(kPollNs);
  }
  shared_->waiting.fetch_sub(1);
}

void GpuTurns::give_back() {
  if (held_until_ns_ == 0) return;
  std::uint64_t mine = held_until_ns_;
  shared_->lease_end_ns.compare_exchange_strong(mine, 0);  // taken over after it ran out: leave it to its holder
  held_until_ns_ = 0;
  just_gave_back_ = true;
}

}  // namespace cuconform
