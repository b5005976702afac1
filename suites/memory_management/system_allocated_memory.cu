// PG12.9 24.2.1.1 file-backed unified memory: on systems with full CUDA Unified Memory support (pageableMemoryAccess
// = 1, Table 32) kernels access memory the host process mapped from a file. Each rule makes its own temporary file
// with bytes from a host model, maps it, and compares what the kernel saw (or wrote) with the model byte for byte.
// 24.2.1.2: on the same systems system-allocated memory is IPC capable; a child process of this binary maps a
// memfd_create file the parent shares and runs kernels on it.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include <cuconform/child_process.h>

#include "ipc_shared.h"
#include "memory_common.cuh"

namespace cuconform::memory_management {
namespace {

constexpr std::size_t kFileBytes = 64 * 1024;  // 16 pages of 4 KiB

unsigned char model_byte(std::size_t i, unsigned seed) { return static_cast<unsigned char>(i * 131u + seed); }

std::vector<unsigned char> model_bytes(unsigned seed) {
  std::vector<unsigned char> bytes(kFileBytes);
  for (std::size_t i = 0; i < kFileBytes; ++i) bytes[i] = model_byte(i, seed);
  return bytes;
}

__global__ void copy_bytes(const unsigned char* in, unsigned char* out, std::size_t count) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    out[i] = in[i];
  }
}

// The device twin of model_byte.
__global__ void write_model_bytes(unsigned char* out, std::size_t count, unsigned seed) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    out[i] = static_cast<unsigned char>(i * 131u + seed);
  }
}

// A temporary file of kFileBytes holding `contents`, unlinked at once and closed with its owner.
class TemporaryFile {
 public:
  explicit TemporaryFile(const std::vector<unsigned char>& contents) {
    const char* dir = std::getenv("TMPDIR");
    std::string path = std::string(dir && *dir ? dir : "/tmp") + "/cuconform-file-backed-XXXXXX";
    fd_ = mkstemp(path.data());
    if (fd_ < 0) return;
    unlink(path.c_str());
    std::size_t done = 0;
    while (done < contents.size()) {
      const ssize_t n = write(fd_, contents.data() + done, contents.size() - done);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    written_ = done == contents.size();
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  ~TemporaryFile() {
    if (fd_ >= 0) close(fd_);
  }
  bool ok() const { return fd_ >= 0 && written_; }
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
  bool written_ = false;
};

// A mapping of a whole TemporaryFile, unmapped with its owner.
class FileMapping {
 public:
  FileMapping(int fd, int protection, int flags) {
    void* p = mmap(nullptr, kFileBytes, protection, flags, fd, 0);
    data_ = p == MAP_FAILED ? nullptr : static_cast<unsigned char*>(p);
  }
  FileMapping(const FileMapping&) = delete;
  FileMapping& operator=(const FileMapping&) = delete;
  ~FileMapping() {
    if (data_) munmap(data_, kFileBytes);
  }
  unsigned char* data() const { return data_; }

 private:
  unsigned char* data_ = nullptr;
};

class FileBackedMemory : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped()) return;
    REQUIRE_ATTRIBUTE(cudaDevAttrPageableMemoryAccess, "access to pageable (system-allocated) memory");
  }
};

RULE_F(FileBackedMemory, KernelsReadAFileMappedIntoTheProcess, "PG12.9 24.2.1.1",
       "On a system with full CUDA Unified Memory support a kernel reads memory mapped from a file (mmap, PROT_READ, "
       "MAP_PRIVATE) directly, and sees the file's bytes") {
  const std::vector<unsigned char> contents = model_bytes(17);
  TemporaryFile file(contents);
  ASSERT_TRUE(file.ok()) << "cannot create a temporary file";
  FileMapping mapping(file.fd(), PROT_READ, MAP_PRIVATE);
  ASSERT_NE(mapping.data(), nullptr) << "cannot map the file";
  DeviceBuffer<unsigned char> seen(kFileBytes);
  copy_bytes<<<16, 256>>>(mapping.data(), seen.get(), kFileBytes);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_TRUE(ElementsEqual(seen.to_host(), contents));
}

RULE_F(FileBackedMemory, KernelWritesToASharedFileMappingReachTheFile, "PG12.9 24.2.1.1",
       "A kernel writes memory mapped from a file with MAP_SHARED directly; after the kernel completes and msync, "
       "the file holds the bytes it wrote") {
  TemporaryFile file(model_bytes(0));
  ASSERT_TRUE(file.ok()) << "cannot create a temporary file";
  {
    FileMapping mapping(file.fd(), PROT_READ | PROT_WRITE, MAP_SHARED);
    ASSERT_NE(mapping.data(), nullptr) << "cannot map the file";
    write_model_bytes<<<16, 256>>>(mapping.data(), kFileBytes, 91);
    CUDA_ASSERT(cudaGetLastError());
    CUDA_ASSERT(cudaDeviceSynchronize());
    ASSERT_EQ(msync(mapping.data(), kFileBytes, MS_SYNC), 0) << "msync failed";
  }
  std::vector<unsigned char> in_file(kFileBytes);
  ASSERT_EQ(pread(file.fd(), in_file.data(), kFileBytes, 0), static_cast<ssize_t>(kFileBytes));
  EXPECT_TRUE(ElementsEqual(in_file, model_bytes(91)));
}

// ---- 24.2.1.2: system-allocated memory shared with another process (memfd_create, MAP_SHARED) ----

// The child maps the inherited memfd; a kernel copies the first half (the parent's bytes) out and writes seed 77's
// bytes into the second half. The child's host counts the bytes that differ from the model; the parent judges.
TEST(SharedSystemMemoryChild, DISABLED_KernelsReadAndWriteTheParentsMemfd) {
  const int fd = int_env("CUCONFORM_MEMFD");
  const int ordinal = int_env("CUCONFORM_IPC_DEVICE", 0);
  ASSERT_GE(fd, 0);
  CUDA_ASSERT(cudaSetDevice(ordinal));
  FileMapping mapping(fd, PROT_READ | PROT_WRITE, MAP_SHARED);
  ASSERT_NE(mapping.data(), nullptr) << "cannot map the memfd";
  const std::size_t half = kFileBytes / 2;
  DeviceBuffer<unsigned char> seen(half);
  copy_bytes<<<16, 256>>>(mapping.data(), seen.get(), half);
  write_model_bytes<<<16, 256>>>(mapping.data() + half, half, 77);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaDeviceSynchronize());
  const std::vector<unsigned char> read = seen.to_host();
  long long wrong = 0;
  for (std::size_t i = 0; i < half; ++i) wrong += read[i] != model_byte(i, 29);
  observe("wrong_bytes_read", wrong);
}

CHILD_PROCESS_RULE_F(
    FileBackedMemory, SystemAllocatedMemoryIsSharedWithKernelsOfAnotherProcess, "PG12.9 24.2.1.2",
    "On a system with full CUDA Unified Memory support, system-allocated memory is IPC capable: memory of a "
    "memfd_create file mapped MAP_SHARED by two processes is read and written by the other process's kernels") {
  const int fd = memfd_create("cuconform-shared-system-memory", 0);
  ASSERT_GE(fd, 0) << "memfd_create failed";
  struct Closer {
    int fd;
    ~Closer() { close(fd); }
  } closer{fd};
  ASSERT_EQ(ftruncate(fd, kFileBytes), 0);
  FileMapping mapping(fd, PROT_READ | PROT_WRITE, MAP_SHARED);
  ASSERT_NE(mapping.data(), nullptr) << "cannot map the memfd";
  const std::size_t half = kFileBytes / 2;
  for (std::size_t i = 0; i < half; ++i) mapping.data()[i] = model_byte(i, 29);
  ASSERT_TRUE(inheritable(fd));
  ChildRun run =
      run_child("SharedSystemMemoryChild.DISABLED_KernelsReadAndWriteTheParentsMemfd",
                {{"CUCONFORM_MEMFD", std::to_string(fd)}, {"CUCONFORM_IPC_DEVICE", std::to_string(device().ordinal)}});
  ASSERT_TRUE(run.passed()) << run.describe();
  EXPECT_EQ(run.number("wrong_bytes_read"), 0) << run.describe();
  const std::vector<unsigned char> written(mapping.data() + half, mapping.data() + kFileBytes);
  std::vector<unsigned char> model(half);
  for (std::size_t i = 0; i < half; ++i) model[i] = model_byte(i, 77);
  EXPECT_TRUE(ElementsEqual(written, model)) << "the child kernel's bytes, read by the parent's host";
}

}  // namespace
}  // namespace cuconform::memory_management
