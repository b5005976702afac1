// PG12.9 22 CUDA Environment Variables (Table 31), each in a child process with that environment:
// CUDA_VISIBLE_DEVICES (indices, an invalid index, full and abbreviated UUIDs), CUDA_DEVICE_ORDER,
// CUDA_LAUNCH_BLOCKING, CUDA_MODULE_LOADING, the JIT variables (CUDA_FORCE_PTX_JIT, CUDA_DISABLE_PTX_JIT,
// CUDA_CACHE_PATH, CUDA_CACHE_DISABLE) and CUDA_LOG_FILE. environment_execution.cu has the variables that change how a
// process runs; the variables left out are listed in README.md with why.
#include <cuconform/build_targets.h>
#include <cuconform/cuconform.h>

#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <cuconform/child_process.h>
#include "driver_api.h"
#include "host_flag.h"
#include "ptx_only_kernel.h"

namespace cuconform::runtime {
namespace {

// "GPU-8932f937-d72c-4106-c12f-20bd9faed9f6", as nvidia-smi prints it.
std::string uuid_text(const cudaUUID_t& uuid) {
  static const int groups[] = {4, 2, 2, 2, 6};
  std::string text = "GPU";
  int byte = 0;
  for (int group : groups) {
    text += '-';
    for (int i = 0; i < group; ++i, ++byte) {
      char hex[3];
      std::snprintf(hex, sizeof hex, "%02x", static_cast<unsigned char>(uuid.bytes[byte]));
      text += hex;
    }
  }
  return text;
}

// ---- Children ----

// Every device the child sees, in its order: count, then uuid_<i> and pci_<i> (domain:bus:device as one number).
TEST(RuntimeEnvChild, DISABLED_ListDevices) {
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  observe("count_error", error);
  observe("count", error == cudaSuccess ? count : 0);
  for (int i = 0; error == cudaSuccess && i < count; ++i) {
    cudaDeviceProp properties{};
    CUDA_ASSERT(cudaGetDeviceProperties(&properties, i));
    observe("uuid_" + std::to_string(i), uuid_text(properties.uuid));
    observe("pci_" + std::to_string(i), (static_cast<long long>(properties.pciDomainID) << 16) |
                                            (properties.pciBusID << 8) | properties.pciDeviceID);
  }
}

TEST(RuntimeEnvChild, DISABLED_LaunchWaitsOrNot) {
  HostFlag flag;
  ASSERT_EQ(flag.launch_waiter(nullptr, 300), cudaSuccess);
  flag.set();  // reached at once when the launch is asynchronous, after the kernel gave up when it blocks
  CUDA_ASSERT(cudaDeviceSynchronize());
  observe("kernel_saw_flag", flag.kernel_saw_flag());
}

TEST(RuntimeEnvChild, DISABLED_ModuleLoadingMode) {
  const DriverApi* api = driver_api();
  ASSERT_NE(api, nullptr);
  ASSERT_EQ(api->cuInit(0), CUDA_SUCCESS);
  CUmoduleLoadingMode mode{};
  ASSERT_EQ(api->cuModuleGetLoadingMode(&mode), CUDA_SUCCESS);
  observe("lazy", mode == CU_MODULE_LAZY_LOADING ? 1 : 0);
}

__global__ void square_each(int* values, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) values[i] = values[i] * values[i];
}

TEST(RuntimeEnvChild, DISABLED_RunAKernel) {
  constexpr int kCount = 1000;
  std::vector<int> host(kCount);
  for (int i = 0; i < kCount; ++i) host[i] = i - 500;
  int* values = nullptr;
  CUDA_ASSERT(cudaMalloc(&values, kCount * sizeof(int)));
  CUDA_ASSERT(cudaMemcpy(values, host.data(), kCount * sizeof(int), cudaMemcpyHostToDevice));
  square_each<<<(kCount + 255) / 256, 256>>>(values, kCount);
  observe("launch_error", cudaGetLastError());
  observe("synchronize_error", cudaDeviceSynchronize());
  std::vector<int> back(kCount, 0);
  CUDA_ASSERT(cudaMemcpy(back.data(), values, kCount * sizeof(int), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < kCount; ++i) wrong += back[i] != (i - 500) * (i - 500);
  observe("wrong_values", wrong);
  CUDA_ASSERT(cudaFree(values));
}

// The JIT-disabling rules' child: square_each (this file's kernel, from the build's binary code where it has one
// for this device), then the PTX-only kernel (ptx_only_kernel.h), each observed as launch error, synchronize error
// and how many values it left wrong (or untouched).
TEST(RuntimeEnvChild, DISABLED_RunAKernelAndAPtxOnlyOne) {
#ifndef CUCONFORM_PTX_ONLY_KERNEL
  GTEST_SKIP() << "no PTX-only kernel in this build";
#else
  constexpr int kCount = 1000;
  std::vector<int> host(kCount);
  for (int i = 0; i < kCount; ++i) host[i] = i - 500;
  int* values = nullptr;
  CUDA_ASSERT(cudaMalloc(&values, 2 * kCount * sizeof(int)));
  CUDA_ASSERT(cudaMemcpy(values, host.data(), kCount * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_ASSERT(cudaMemcpy(values + kCount, host.data(), kCount * sizeof(int), cudaMemcpyHostToDevice));
  square_each<<<(kCount + 255) / 256, 256>>>(values, kCount);
  observe("launch_error", cudaGetLastError());
  observe("synchronize_error", cudaDeviceSynchronize());
  std::vector<int> back(2 * kCount, 0);
  CUDA_ASSERT(cudaMemcpy(back.data(), values, kCount * sizeof(int), cudaMemcpyDeviceToHost));
  // Read back before the PTX-only launch, so that its failure to load cannot decide what the first kernel did.
  observe("ptx_only_launch_error", launch_ptx_only_triple_plus_one(values + kCount, kCount));
  observe("ptx_only_synchronize_error", cudaDeviceSynchronize());
  CUDA_ASSERT(cudaMemcpy(back.data() + kCount, values + kCount, kCount * sizeof(int), cudaMemcpyDeviceToHost));
  int wrong = 0, untouched = 0, ptx_only_wrong = 0, ptx_only_untouched = 0;
  for (int i = 0; i < kCount; ++i) {
    wrong += back[i] != (i - 500) * (i - 500);
    untouched += back[i] == i - 500;
    ptx_only_wrong += back[kCount + i] != 3 * (i - 500) + 1;
    ptx_only_untouched += back[kCount + i] == i - 500;
  }
  observe("wrong_values", wrong);
  observe("untouched_values", untouched);
  observe("ptx_only_wrong_values", ptx_only_wrong);
  observe("ptx_only_untouched_values", ptx_only_untouched);
  CUDA_ASSERT(cudaFree(values));
#endif
}

TEST(RuntimeEnvChild, DISABLED_LogAnInvalidDump) {
  const DriverApi* api = driver_api();
  ASSERT_NE(api, nullptr);
  ASSERT_EQ(api->cuInit(0), CUDA_SUCCESS);
  size_t size = 0;
  observe("dump_error", api->cuLogsDumpToMemory(nullptr, nullptr, &size, 0));  // the guide's own example
}

// PG12.9 23.4-23.5: the cuLogs* API in a process whose log buffer holds only what this child logs. The logged error
// is the guide's own example, cuLogsDumpToMemory with a NULL buffer ("buffer cannot be NULL").
// The callback counts through its userData: a changed pointer would not reach these counts.
struct CallbackCalls {
  int calls = 0;
  int with_the_message = 0;
  int at_error_level = 0;
};

void CUDA_CB count_log_callback(void* data, CUlogLevel level, char* message, size_t length) {
  CallbackCalls* calls = static_cast<CallbackCalls*>(data);
  ++calls->calls;
  calls->at_error_level += level == CU_LOG_LEVEL_ERROR;
  if (message && std::string(message, strnlen(message, length)).find("buffer cannot be NULL") != std::string::npos) {
    ++calls->with_the_message;
  }
}

long long occurrences(const std::string& text, const std::string& what) {
  long long count = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++count;
  return count;
}

// The log entries one failed cuLogsDumpToMemory call makes: its message, and (this driver) a second entry naming
// the function ("Returning 1 (CUDA_ERROR_INVALID_VALUE) from cuLogsDumpToMemory", see FINDINGS.md).
long long entries_of_the_logged_error(const std::string& dump) {
  return occurrences(dump, "buffer cannot be NULL") + occurrences(dump, "from cuLogsDumpToMemory");
}

TEST(RuntimeEnvChild, DISABLED_LogsApi) {
  const DriverApi* api = driver_api();
  ASSERT_NE(api, nullptr);
  ASSERT_EQ(api->cuInit(0), CUDA_SUCCESS);
  const std::string message = "buffer cannot be NULL";
  auto log_an_error = [&] {
    size_t size = 0;
    api->cuLogsDumpToMemory(nullptr, nullptr, &size, 0);
  };
  // A callback: called for each log, with the user data unchanged; not called once unregistered.
  CallbackCalls calls;
  CUlogsCallbackHandle handle = nullptr;
  ASSERT_EQ(api->cuLogsRegisterCallback(count_log_callback, &calls, &handle), CUDA_SUCCESS);
  log_an_error();
  log_an_error();
  observe("callback_calls", calls.calls);
  observe("callback_calls_with_the_message", calls.with_the_message);
  observe("callback_calls_at_error_level", calls.at_error_level);
  ASSERT_EQ(api->cuLogsUnregisterCallback(handle), CUDA_SUCCESS);
  log_an_error();
  observe("callback_calls_after_unregistering", calls.calls);
  // An iterator: a dump from it holds only what was logged after it, and moves it to the end.
  CUlogIterator iterator = 0;
  ASSERT_EQ(api->cuLogsCurrent(&iterator, 0), CUDA_SUCCESS);
  for (int i = 0; i < 3; ++i) log_an_error();
  std::vector<char> buffer(25600, 'x');
  size_t size = buffer.size();
  observe("dump_error", api->cuLogsDumpToMemory(&iterator, buffer.data(), &size, 0));
  const std::size_t length = strnlen(buffer.data(), buffer.size());
  observe("dump_terminated", length < buffer.size() ? 1 : 0);
  observe("dump_size", static_cast<long long>(size));
  observe("dump_length", static_cast<long long>(length));
  observe("entries_after_iterator", occurrences(std::string(buffer.data(), length), message));
  size = buffer.size();
  observe("second_dump_error", api->cuLogsDumpToMemory(&iterator, buffer.data(), &size, 0));
  observe("entries_in_second_dump", occurrences(std::string(buffer.data(), strnlen(buffer.data(), size)), message));
  // More than 100 logs: the buffer keeps 100 entries.
  for (int i = 0; i < 150; ++i) log_an_error();
  size = buffer.size();
  observe("full_dump_error", api->cuLogsDumpToMemory(nullptr, buffer.data(), &size, 0));
  observe("entries_in_full_dump",
          entries_of_the_logged_error(std::string(buffer.data(), strnlen(buffer.data(), size))));
  // The same buffer, dumped to a file.
  const char* file = std::getenv("CUCONFORM_LOG_DUMP");
  ASSERT_NE(file, nullptr);
  observe("file_dump_error", api->cuLogsDumpToFile(nullptr, file, 0));
}

// ---- Helpers of the parent ----

struct DeviceList {
  long long count = 0;
  std::vector<std::string> uuids;
  std::vector<long long> pci;
};

DeviceList list_devices(const std::vector<EnvSetting>& env, ChildRun* run_out = nullptr) {
  ChildRun run = run_child("RuntimeEnvChild.DISABLED_ListDevices", env);
  EXPECT_TRUE(run.passed()) << run.describe();
  DeviceList list;
  if (!run.has("count")) return list;
  list.count = run.number("count");
  for (long long i = 0; i < list.count; ++i) {
    list.uuids.push_back(run.observed["uuid_" + std::to_string(i)]);
    list.pci.push_back(run.number("pci_" + std::to_string(i)));
  }
  if (run_out) *run_out = run;
  return list;
}

// Every physical GPU, in the default order: the child does not inherit the CUDA_VISIBLE_DEVICES the harness gave
// this process.
DeviceList all_devices() { return list_devices({{"CUDA_VISIBLE_DEVICES", std::nullopt}}); }

// The documented model of CUDA_VISIBLE_DEVICES with integer indices: the devices named, in the order named, up to the
// first invalid index.
std::vector<std::string> visible_by_model(const std::vector<int>& indices, const DeviceList& all) {
  std::vector<std::string> visible;
  for (int index : indices) {
    if (index < 0 || index >= all.count) break;
    visible.push_back(all.uuids[index]);
  }
  return visible;
}

std::string joined(const std::vector<int>& indices) {
  std::string text;
  for (int index : indices) text += (text.empty() ? "" : ",") + std::to_string(index);
  return text;
}

class TemporaryDirectory {
 public:
  TemporaryDirectory() {
    char pattern[] = "/tmp/cuconform-runtime-XXXXXX";
    path_ = mkdtemp(pattern) ? pattern : "";
  }
  ~TemporaryDirectory() {
    std::error_code ignored;  // a folder left behind in /tmp is no test's business
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }
  // Regular files anywhere below the directory.
  long long files() const { return count_files(path_, 0); }
  // Regular files in its subfolders: the JIT cache keeps an index at its top and each binary code in a subfolder.
  long long files_in_subfolders() const { return count_files(path_, 1); }

 private:
  static long long count_files(const std::string& directory, int min_depth, int depth = 0) {
    long long count = 0;
    DIR* dir = opendir(directory.c_str());
    if (!dir) return 0;
    while (dirent* entry = readdir(dir)) {
      std::string name = entry->d_name;
      if (name == "." || name == "..") continue;
      if (entry->d_type == DT_DIR) {
        count += count_files(directory + "/" + name, min_depth, depth + 1);
      } else if (depth >= min_depth) {
        ++count;
      }
    }
    closedir(dir);
    return count;
  }
  std::string path_;
};

class EnvironmentVariables : public GpuTest {};

// ---- CUDA_VISIBLE_DEVICES ----

CHILD_PROCESS_RULE_F(
    EnvironmentVariables, VisibleDevicesIndicesChooseAndOrderTheDevices, "PG12.9 22",
    "CUDA_VISIBLE_DEVICES: only the devices whose index is in the sequence are visible, in the order of the "
    "sequence; devices after an invalid index are invisible") {
  const DeviceList all = all_devices();
  ASSERT_GE(all.count, 1) << "the child found no device";
  const int past_end = static_cast<int>(all.count);
  // Each sequence costs a child process (about 0.4 s): the quick profile takes one of each kind.
  std::vector<std::vector<int>> sequences = {{0}, {-1, 0}, {0, past_end, 0}};
  if (full_profile()) sequences.insert(sequences.end(), {{-1}, {0, -1}, {past_end}});
  if (all.count >= 2) sequences.insert(sequences.end(), {{1, 0}, {1}, {0, 2, -1, 1}});
  for (const std::vector<int>& sequence : sequences) {
    const DeviceList seen = list_devices({{"CUDA_VISIBLE_DEVICES", joined(sequence)}});
    EXPECT_EQ(seen.uuids, visible_by_model(sequence, all)) << "CUDA_VISIBLE_DEVICES=" << joined(sequence);
  }
  record_metric("physical_devices", all.count);
}

CHILD_PROCESS_RULE_F(
    EnvironmentVariables, VisibleDevicesEmptyHidesEveryDevice, "PG12.9 22",
    "CUDA_VISIBLE_DEVICES: only the devices present in the sequence are visible, so an empty sequence shows none") {
  ChildRun run;
  const DeviceList seen = list_devices({{"CUDA_VISIBLE_DEVICES", ""}}, &run);
  EXPECT_EQ(seen.count, 0);
  EXPECT_EQ(run.number("count_error"), cudaErrorNoDevice) << run.describe();
}

CHILD_PROCESS_RULE_F(EnvironmentVariables, VisibleDevicesAcceptsAFullUuid, "PG12.9 22",
                     "CUDA_VISIBLE_DEVICES: a GPU is named by its UUID string in nvidia-smi's format") {
  const DeviceList all = all_devices();
  for (const std::string& uuid : all.uuids) {
    const DeviceList seen = list_devices({{"CUDA_VISIBLE_DEVICES", uuid}});
    EXPECT_EQ(seen.uuids, std::vector<std::string>{uuid}) << "CUDA_VISIBLE_DEVICES=" << uuid;
  }
}

CHILD_PROCESS_RULE_F(
    EnvironmentVariables, VisibleDevicesAcceptsAnAbbreviatedUuid, "PG12.9 22",
    "CUDA_VISIBLE_DEVICES: enough leading digits of a GPU UUID to identify it uniquely name that GPU") {
  const DeviceList all = all_devices();
  for (const std::string& uuid : all.uuids) {
    // The shortest prefix of at least "GPU-" + 8 digits that no other GPU shares.
    std::size_t length = 12;
    for (bool unique = false; !unique && length < uuid.size(); length += unique ? 0 : 1) {
      unique = true;
      for (const std::string& other : all.uuids) {
        if (other != uuid && other.compare(0, length, uuid, 0, length) == 0) unique = false;
      }
    }
    const std::string prefix = uuid.substr(0, length);
    const DeviceList seen = list_devices({{"CUDA_VISIBLE_DEVICES", prefix}});
    EXPECT_EQ(seen.uuids, std::vector<std::string>{uuid}) << "CUDA_VISIBLE_DEVICES=" << prefix;
  }
}

// The documented model of CUDA_VISIBLE_DEVICES with identifiers of both kinds: an index, or a UUID (full, or a
// prefix naming one device); the devices named, in the order named, up to the first invalid index.
std::vector<std::string> visible_by_model(const std::vector<std::string>& identifiers, const DeviceList& all) {
  std::vector<std::string> visible;
  for (const std::string& identifier : identifiers) {
    if (identifier.rfind("GPU-", 0) == 0) {
      for (const std::string& uuid : all.uuids) {
        if (uuid.rfind(identifier, 0) == 0) visible.push_back(uuid);
      }
      continue;
    }
    const int index = std::stoi(identifier);
    if (index < 0 || index >= all.count) break;
    visible.push_back(all.uuids[index]);
  }
  return visible;
}

std::string joined(const std::vector<std::string>& identifiers) {
  std::string text;
  for (const std::string& identifier : identifiers) text += (text.empty() ? "" : ",") + identifier;
  return text;
}

CHILD_PROCESS_RULE_F(
    EnvironmentVariables, VisibleDevicesMixesUuidsAndIndices, "PG12.9 22",
    "CUDA_VISIBLE_DEVICES: GPU identifiers are integer indices or UUID strings; the devices named are enumerated "
    "in the order of the sequence, and an invalid index hides every identifier after it") {
  const DeviceList all = all_devices();
  ASSERT_GE(all.count, 1) << "the child found no device";
  std::vector<std::vector<std::string>> sequences = {{all.uuids[0], "-1"}, {"-1", all.uuids[0]}};
  if (all.count >= 2) {
    sequences.insert(sequences.end(), {{all.uuids[1], all.uuids[0]}, {all.uuids[1], "-1", all.uuids[0]}});
  }
  for (const std::vector<std::string>& sequence : sequences) {
    const DeviceList seen = list_devices({{"CUDA_VISIBLE_DEVICES", joined(sequence)}});
    EXPECT_EQ(seen.uuids, visible_by_model(sequence, all)) << "CUDA_VISIBLE_DEVICES=" << joined(sequence);
  }
}

// A rule of its own: with two GPUs the driver shows the UUID's device alone (FINDINGS.md), and one GPU cannot tell.
CHILD_PROCESS_RULE_F(
    EnvironmentVariables, VisibleDevicesTakesAnIndexAfterAUuid, "PG12.9 22",
    "CUDA_VISIBLE_DEVICES: each GPU identifier is an integer index or a UUID string, so <UUID of device 1>,0 "
    "enumerates device 1, then device 0") {
  const DeviceList all = all_devices();
  if (all.count < 2) GTEST_SKIP() << "needs 2 GPUs to name a second device by index; " << all.count << " present";
  const std::vector<std::string> sequence = {all.uuids[1], "0"};
  const DeviceList seen = list_devices({{"CUDA_VISIBLE_DEVICES", joined(sequence)}});
  EXPECT_EQ(seen.uuids, (std::vector<std::string>{all.uuids[1], all.uuids[0]}))
      << "CUDA_VISIBLE_DEVICES=" << joined(sequence);
}

CHILD_PROCESS_RULE_F(
    EnvironmentVariables, VisibleDevicesAcceptsTheShortestUniqueUuidPrefix, "PG12.9 22",
    "CUDA_VISIBLE_DEVICES: an abbreviated UUID needs only \"enough digits from the beginning of the GPU UUID to "
    "uniquely identify that GPU in the target system\": the shortest unique prefix names it") {
  const DeviceList all = all_devices();
  for (const std::string& uuid : all.uuids) {
    // "GPU-" and the fewest digits that no other GPU's UUID starts with (one, with a single GPU).
    std::size_t length = 5;
    for (bool unique = false; !unique && length < uuid.size(); length += unique ? 0 : 1) {
      unique = true;
      for (const std::string& other : all.uuids) {
        if (other != uuid && other.compare(0, length, uuid, 0, length) == 0) unique = false;
      }
    }
    const std::string prefix = uuid.substr(0, length);
    const DeviceList seen = list_devices({{"CUDA_VISIBLE_DEVICES", prefix}});
    EXPECT_EQ(seen.uuids, std::vector<std::string>{uuid}) << "CUDA_VISIBLE_DEVICES=" << prefix;
  }
}

// ---- CUDA_DEVICE_ORDER ----

CHILD_PROCESS_RULE_F(
    EnvironmentVariables, DeviceOrderDefaultIsFastestFirst, "PG12.9 22",
    "CUDA_DEVICE_ORDER's default is FASTEST_FIRST: unset, the devices are enumerated as with FASTEST_FIRST") {
  const DeviceList unset = list_devices({{"CUDA_VISIBLE_DEVICES", std::nullopt}, {"CUDA_DEVICE_ORDER", std::nullopt}});
  if (unset.count < 2) GTEST_SKIP() << "needs 2 GPUs to observe an order; " << unset.count << " present";
  const DeviceList fastest_first =
      list_devices({{"CUDA_VISIBLE_DEVICES", std::nullopt}, {"CUDA_DEVICE_ORDER", "FASTEST_FIRST"}});
  EXPECT_EQ(fastest_first.uuids, unset.uuids);
}

CHILD_PROCESS_RULE_F(EnvironmentVariables, DeviceOrderPciBusIdIsAscending, "PG12.9 22",
                     "CUDA_DEVICE_ORDER=PCI_BUS_ID orders the devices by PCI bus ID in ascending order") {
  const DeviceList all = all_devices();
  if (all.count < 2) GTEST_SKIP() << "needs 2 GPUs to observe an order; " << all.count << " present";
  const DeviceList seen = list_devices({{"CUDA_VISIBLE_DEVICES", std::nullopt}, {"CUDA_DEVICE_ORDER", "PCI_BUS_ID"}});
  ASSERT_EQ(seen.count, all.count);
  for (std::size_t i = 1; i < seen.pci.size(); ++i) {
    EXPECT_LT(seen.pci[i - 1], seen.pci[i]) << "devices " << i - 1 << " and " << i << " out of bus order";
  }
}

// ---- CUDA_LAUNCH_BLOCKING ----

CHILD_PROCESS_RULE_F(EnvironmentVariables, LaunchBlockingOneMakesLaunchesSynchronous, "PG12.9 22",
                     "CUDA_LAUNCH_BLOCKING=1 disables asynchronous kernel launches") {
  ChildRun run = run_child("RuntimeEnvChild.DISABLED_LaunchWaitsOrNot", {{"CUDA_LAUNCH_BLOCKING", "1"}});
  ASSERT_TRUE(run.passed()) << run.describe();
  EXPECT_EQ(run.number("kernel_saw_flag"), 0)
      << "the launch returned while the kernel still ran: the host set the flag the kernel waited for";
}

CHILD_PROCESS_RULE_F(EnvironmentVariables, LaunchBlockingZeroKeepsLaunchesAsynchronous, "PG12.9 22",
                     "CUDA_LAUNCH_BLOCKING=0 (the default) enables asynchronous kernel launches") {
  const std::optional<std::string> values[] = {"0", std::nullopt};
  for (const std::optional<std::string>& value : values) {
    ChildRun run = run_child("RuntimeEnvChild.DISABLED_LaunchWaitsOrNot", {{"CUDA_LAUNCH_BLOCKING", value}});
    ASSERT_TRUE(run.passed()) << run.describe();
    EXPECT_EQ(run.number("kernel_saw_flag"), 1)
        << "CUDA_LAUNCH_BLOCKING=" << value.value_or("(unset)") << ": the launch returned only after the kernel "
        << "gave up waiting for the host";
  }
}

// ---- CUDA_MODULE_LOADING ----

CHILD_PROCESS_RULE_F(EnvironmentVariables, ModuleLoadingChoosesLazyOrEager, "PG12.9 22",
                     "CUDA_MODULE_LOADING=LAZY or EAGER sets the module loading mode; the default is LAZY") {
  const char* why = nullptr;
  if (!driver_api(&why)) GTEST_SKIP() << why;
  struct Case {
    std::optional<std::string> value;
    long long lazy;
  };
  const Case cases[] = {{"EAGER", 0}, {"LAZY", 1}, {std::nullopt, 1}};
  for (const Case& c : cases) {
    ChildRun run = run_child("RuntimeEnvChild.DISABLED_ModuleLoadingMode", {{"CUDA_MODULE_LOADING", c.value}});
    ASSERT_TRUE(run.passed()) << run.describe();
    EXPECT_EQ(run.number("lazy"), c.lazy) << "CUDA_MODULE_LOADING=" << c.value.value_or("(unset)");
  }
}

// ---- Just-in-time compilation ----

// The JIT rules' child: one kernel launch, with the rule's JIT variables `jit` in its environment.
ChildRun run_a_kernel(const std::vector<EnvSetting>& jit) {
  return run_child("RuntimeEnvChild.DISABLED_RunAKernel", jit);
}

// The same, with the JIT cache in `cache` (CUDA_CACHE_PATH), switched on (CUDA_CACHE_DISABLE=0) unless
// `cache_disable` says otherwise.
ChildRun run_a_kernel_caching_in(const TemporaryDirectory& cache, std::vector<EnvSetting> jit,
                                 const char* cache_disable = "0") {
  jit.push_back({"CUDA_CACHE_DISABLE", cache_disable});
  jit.push_back({"CUDA_CACHE_PATH", cache.path()});
  return run_a_kernel(jit);
}

// A build by a toolkit newer than the driver embeds PTX of a newer ISA, which the driver's JIT rejects
// (cudaErrorUnsupportedPtxVersion at the launch): a JIT rule cannot run there, and skips naming both versions.
std::string driver_cannot_jit_this_ptx() {
  int driver = 0;
  (void)cudaDriverGetVersion(&driver);
  const auto version = [](int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); };
  return "the driver (CUDA " + version(driver) + ") cannot JIT-compile the PTX of this build's toolkit (CUDA " +
         version(CUDART_VERSION) +
         "): cudaErrorUnsupportedPtxVersion; the rule needs a driver at least as new as the "
         "toolkit";
}
#define SKIP_IF_THE_DRIVER_CANNOT_JIT(run)                              \
  if ((run).number("launch_error") == cudaErrorUnsupportedPtxVersion) { \
    GTEST_SKIP() << driver_cannot_jit_this_ptx();                       \
  }

// Whether the child's kernel was checked for cudaDeviceSynchronize()'s result as well as for its values.
enum class Synchronize { Checked, NotChecked };

// The child ran to its end (else a fatal failure: call through ASSERT_NO_FATAL_FAILURE) and its kernel squared
// every value right.
void expect_the_kernel_ran(const ChildRun& run, Synchronize synchronize) {
  ASSERT_TRUE(run.passed()) << run.describe();
  if (synchronize == Synchronize::Checked) {
    EXPECT_EQ(run.number("synchronize_error"), cudaSuccess) << run.describe();
  }
  EXPECT_EQ(run.number("wrong_values"), 0) << run.describe();
}

CHILD_PROCESS_RULE_F(
    EnvironmentVariables, ForcePtxJitRunsTheEmbeddedPtxAndCachesItInCachePath, "PG12.9 22",
    "CUDA_FORCE_PTX_JIT=1 ignores embedded binary code and JIT-compiles the embedded PTX; CUDA_CACHE_PATH is the "
    "folder where the JIT caches binary codes") {
  TemporaryDirectory cache;
  ASSERT_FALSE(cache.path().empty());
  ChildRun run = run_a_kernel_caching_in(cache, {{"CUDA_FORCE_PTX_JIT", "1"}});
  SKIP_IF_THE_DRIVER_CANNOT_JIT(run);
  ASSERT_NO_FATAL_FAILURE(expect_the_kernel_ran(run, Synchronize::Checked));
  EXPECT_GT(cache.files(), 0) << "nothing was cached in CUDA_CACHE_PATH=" << cache.path();
  record_metric("cache_files", cache.files());
}

CHILD_PROCESS_RULE_F(EnvironmentVariables, CacheDisableAddsNothingToTheCache, "PG12.9 22",
                     "CUDA_CACHE_DISABLE=1: no binary code is added to or retrieved from the JIT cache") {
  TemporaryDirectory cache;
  ASSERT_FALSE(cache.path().empty());
  ChildRun run = run_a_kernel_caching_in(cache, {{"CUDA_FORCE_PTX_JIT", "1"}}, "1");
  SKIP_IF_THE_DRIVER_CANNOT_JIT(run);
  ASSERT_NO_FATAL_FAILURE(expect_the_kernel_ran(run, Synchronize::NotChecked));
  EXPECT_EQ(cache.files(), 0) << "CUDA_CACHE_DISABLE=1, yet files were written to " << cache.path();
}

CHILD_PROCESS_RULE_F(
    EnvironmentVariables, CacheMaxSizeDoesNotCacheLargerBinaryCodes, "PG12.9 22",
    "CUDA_CACHE_MAXSIZE is the size in bytes of the JIT cache; binary codes whose size exceeds it are not cached") {
  // The control: the same JIT compilation with the default size caches its binary codes in subfolders.
  TemporaryDirectory control;
  TemporaryDirectory tiny;
  ASSERT_FALSE(control.path().empty() || tiny.path().empty());
  ChildRun cached =
      run_a_kernel_caching_in(control, {{"CUDA_FORCE_PTX_JIT", "1"}, {"CUDA_CACHE_MAXSIZE", std::nullopt}});
  ASSERT_TRUE(cached.passed()) << cached.describe();
  SKIP_IF_THE_DRIVER_CANNOT_JIT(cached);
  ASSERT_GT(control.files_in_subfolders(), 0)
      << "with the default size no binary code was cached in a subfolder of " << control.path() << " ("
      << control.files() << " files in all): the cache's layout is not the one this rule counts";
  // 64 bytes: the size of an ELF header alone, so every binary code exceeds it.
  ChildRun run = run_a_kernel_caching_in(tiny, {{"CUDA_FORCE_PTX_JIT", "1"}, {"CUDA_CACHE_MAXSIZE", "64"}});
  ASSERT_NO_FATAL_FAILURE(expect_the_kernel_ran(run, Synchronize::NotChecked));
  EXPECT_EQ(tiny.files_in_subfolders(), 0)
      << "CUDA_CACHE_MAXSIZE=64, yet binary codes were cached (the default size cached "
      << control.files_in_subfolders() << ")";
  record_metric("cached_binary_codes_default_size", control.files_in_subfolders());
  record_metric("files_with_64_byte_cache", tiny.files());
}

// ---- CUDA_DISABLE_PTX_JIT and CUDA_DISABLE_JIT: JIT disabled, observed on a kernel that has only PTX ----

// Every JIT variable of Table 31 unset, then `jit`: the child of the two rules below, with lazy loading, so that the
// PTX-only kernel's module is loaded (or fails to load) at its launch and not with the others at the context's
// creation. Its JIT cache in `cache`.
ChildRun run_the_ptx_only_kernel(const TemporaryDirectory& cache, const std::vector<EnvSetting>& jit) {
  std::vector<EnvSetting> env = {{"CUDA_FORCE_PTX_JIT", std::nullopt},   {"CUDA_FORCE_JIT", std::nullopt},
                                 {"CUDA_DISABLE_PTX_JIT", std::nullopt}, {"CUDA_DISABLE_JIT", std::nullopt},
                                 {"CUDA_MODULE_LOADING", "LAZY"},        {"CUDA_CACHE_DISABLE", "0"},
                                 {"CUDA_CACHE_PATH", cache.path()}};
  env.insert(env.end(), jit.begin(), jit.end());
  return run_child("RuntimeEnvChild.DISABLED_RunAKernelAndAPtxOnlyOne", env);
}

// The control: without the variables the PTX-only kernel is JIT-compiled and computes every value (else the rule
// cannot tell a disabled JIT from a JIT that does not work, and skips or fails saying so).
void expect_the_ptx_only_kernel_runs_without_the_variables() {
  TemporaryDirectory cache;
  ASSERT_FALSE(cache.path().empty());
  ChildRun control = run_the_ptx_only_kernel(cache, {});
  ASSERT_TRUE(control.passed()) << control.describe();
  if (control.number("ptx_only_launch_error") == cudaErrorUnsupportedPtxVersion) {
    GTEST_SKIP() << driver_cannot_jit_this_ptx();
  }
  ASSERT_EQ(control.number("ptx_only_launch_error"), cudaSuccess) << "the control\n" << control.describe();
  ASSERT_EQ(control.number("ptx_only_wrong_values"), 0) << "the control\n" << control.describe();
  // The JIT cache keeps its binary codes in subfolders (beside an index file, which the driver may write when it
  // opens the cache, JIT or not): the control's must hold one, or the count below could not see a JIT compilation.
  ASSERT_GT(cache.files_in_subfolders(), 0)
      << "the control's JIT compilation cached no binary code in a subfolder of " << cache.path() << " ("
      << cache.files() << " files in all): the cache's layout is not the one this rule counts";
}

// With `variable`=1: the PTX-only kernel fails to load (its launch returns an error and it writes nothing), and the
// build's kernel runs from its binary code where the build has one for this device, else fails to load as well.
void expect_jit_disabled_by(const char* variable) {
  ASSERT_NO_FATAL_FAILURE(expect_the_ptx_only_kernel_runs_without_the_variables());
  if (::testing::Test::IsSkipped()) return;
  TemporaryDirectory cache;
  ASSERT_FALSE(cache.path().empty());
  ChildRun run = run_the_ptx_only_kernel(cache, {{variable, "1"}});
  ASSERT_TRUE(run.passed()) << run.describe();
  EXPECT_NE(run.number("ptx_only_launch_error"), cudaSuccess)
      << variable << "=1, yet the kernel that has only PTX was launched\n"
      << run.describe();
  EXPECT_EQ(run.number("ptx_only_untouched_values"), 1000)
      << variable << "=1, yet the kernel that has only PTX ran (JIT-compiled)\n"
      << run.describe();
  if (no_device_binary()) {
    EXPECT_NE(run.number("launch_error"), cudaSuccess)
        << variable << "=1 in a build without binary code for this device (" << *no_device_binary()
        << "), yet its kernel was launched\n"
        << run.describe();
    EXPECT_EQ(run.number("untouched_values"), 1000) << run.describe();
  } else {
    EXPECT_EQ(run.number("launch_error"), cudaSuccess) << "the compatible binary code did not run\n" << run.describe();
    EXPECT_EQ(run.number("synchronize_error"), cudaSuccess) << run.describe();
    EXPECT_EQ(run.number("wrong_values"), 0) << run.describe();
  }
  EXPECT_EQ(cache.files_in_subfolders(), 0)
      << variable << "=1, yet binary codes were JIT-compiled into " << cache.path();
  record_metric("ptx_only_launch_error", run.number("ptx_only_launch_error"));
  record_metric("jit_cache_files", cache.files());
}

#ifdef CUCONFORM_PTX_ONLY_KERNEL
#define REQUIRE_A_PTX_ONLY_KERNEL()
#else
#define REQUIRE_A_PTX_ONLY_KERNEL()                                                                       \
  GTEST_SKIP() << "compiler lacks it: clang embeds binary code for every --cuda-gpu-arch, so this build " \
                  "has no kernel with PTX alone"
#endif

CHILD_PROCESS_RULE_F(
    EnvironmentVariables, DisablePtxJitUsesTheCompatibleBinary, "PG12.9 22",
    "CUDA_DISABLE_PTX_JIT=1 disables JIT compilation of embedded PTX and uses the compatible binary code embedded "
    "in the application; a kernel without embedded binary code fails to load") {
  REQUIRE_A_PTX_ONLY_KERNEL();
  expect_jit_disabled_by("CUDA_DISABLE_PTX_JIT");
}

CHILD_PROCESS_RULE_F(
    EnvironmentVariables, ForceJitCompilesTheEmbeddedPtx, "PG12.9 22",
    "CUDA_FORCE_JIT=1 ignores embedded binary code and JIT-compiles the embedded PTX instead (which the JIT cache "
    "then holds)") {
  TemporaryDirectory cache;
  ASSERT_FALSE(cache.path().empty());
  ChildRun run = run_a_kernel_caching_in(cache, {{"CUDA_FORCE_JIT", "1"}, {"CUDA_FORCE_PTX_JIT", std::nullopt}});
  SKIP_IF_THE_DRIVER_CANNOT_JIT(run);
  ASSERT_NO_FATAL_FAILURE(expect_the_kernel_ran(run, Synchronize::NotChecked));
  EXPECT_GT(cache.files(), 0) << "nothing was JIT-compiled into CUDA_CACHE_PATH=" << cache.path();
}

CHILD_PROCESS_RULE_F(
    EnvironmentVariables, ForcePtxJitZeroOverridesForceJit, "PG12.9 22",
    "CUDA_FORCE_JIT's behaviour can be overridden for embedded PTX by setting CUDA_FORCE_PTX_JIT=0: the embedded "
    "binary code runs and nothing is JIT-compiled") {
  REQUIRE_DEVICE_BINARY();
  TemporaryDirectory cache;
  ASSERT_FALSE(cache.path().empty());
  ChildRun run = run_a_kernel_caching_in(cache, {{"CUDA_FORCE_JIT", "1"}, {"CUDA_FORCE_PTX_JIT", "0"}});
  ASSERT_NO_FATAL_FAILURE(expect_the_kernel_ran(run, Synchronize::NotChecked));
  EXPECT_EQ(cache.files(), 0) << "binary codes were JIT-compiled into " << cache.path()
                              << " although CUDA_FORCE_PTX_JIT=0 overrides CUDA_FORCE_JIT=1";
}

CHILD_PROCESS_RULE_F(
    EnvironmentVariables, DisableJitUsesTheCompatibleBinary, "PG12.9 22",
    "CUDA_DISABLE_JIT=1 disables JIT compilation of embedded PTX and uses the compatible binary code embedded in "
    "the application; a kernel without embedded binary code fails to load") {
  REQUIRE_A_PTX_ONLY_KERNEL();
  expect_jit_disabled_by("CUDA_DISABLE_JIT");
}

// ---- CUDA_LOG_FILE (and PG12.9 23 Error Log Management) ----

CHILD_PROCESS_RULE_F(
    EnvironmentVariables, LogFileReceivesErrorLogsInTheDocumentedFormat, "PG12.9 23.3",
    "with CUDA_LOG_FILE set, an API error is logged as [Time][TID][Source][Severity][API Entry Point] Message") {
  const char* why = nullptr;
  if (!driver_api(&why)) GTEST_SKIP() << why;
  TemporaryDirectory directory;
  const std::string log = directory.path() + "/cuda.log";
  ChildRun run = run_child("RuntimeEnvChild.DISABLED_LogAnInvalidDump", {{"CUDA_LOG_FILE", log}});
  ASSERT_TRUE(run.passed()) << run.describe();
  EXPECT_EQ(run.number("dump_error"), CUDA_ERROR_INVALID_VALUE);
  std::ifstream file(log);
  ASSERT_TRUE(file.good()) << "CUDA_LOG_FILE=" << log << " was not written";
  std::stringstream text;
  text << file.rdbuf();
  // The guide's line: [22:21:32.099][25642][CUDA][E][cuLogsDumpToMemory] buffer cannot be NULL
  const std::regex documented(
      R"(\[\d\d:\d\d:\d\d\.\d{3}\]\[\d+\]\[CUDA\]\[E\]\[cuLogsDumpToMemory\] buffer cannot be NULL)");
  EXPECT_TRUE(std::regex_search(text.str(), documented)) << "the log holds:\n" << text.str();
}

class ErrorLogApi : public DriverApiTest {
 protected:
  // One child per process serves the rules; its file dump goes to a temporary folder.
  static const ChildRun& logs_api() {
    static const ChildRun run = run_child("RuntimeEnvChild.DISABLED_LogsApi",
                                          {{"CUDA_LOG_FILE", std::nullopt}, {"CUCONFORM_LOG_DUMP", dump_path()}});
    return run;
  }
  static std::string dump_path() {
    static TemporaryDirectory directory;
    return directory.path() + "/dump.log";
  }
};

CHILD_PROCESS_RULE_F(
    ErrorLogApi, CallbackReceivesEachLogUntilUnregistered, "PG12.9 23.4",
    "a callback registered with cuLogsRegisterCallback is called whenever an error log is generated, with its "
    "userData unchanged; cuLogsUnregisterCallback stops the calls") {
  const ChildRun& run = logs_api();
  ASSERT_TRUE(run.passed()) << run.describe();
  EXPECT_EQ(run.number("callback_calls_with_the_message"), 2) << "two errors were logged\n" << run.describe();
  EXPECT_EQ(run.number("callback_calls_at_error_level"), run.number("callback_calls")) << run.describe();
  EXPECT_EQ(run.number("callback_calls_after_unregistering"), run.number("callback_calls"))
      << "the callback was called after unregistering";
  record_metric("callback_calls_for_two_errors", run.number("callback_calls"));
}

CHILD_PROCESS_RULE_F(
    ErrorLogApi, DumpFromAnIteratorHoldsOnlyLaterLogsAndAdvancesIt, "PG12.9 23.4",
    "cuLogsDumpToMemory from an iterator (cuLogsCurrent) dumps the logs from that entry, null-terminated, sets "
    "size to the bytes written, and moves the iterator to the current end of the logs") {
  const ChildRun& run = logs_api();
  ASSERT_TRUE(run.passed()) << run.describe();
  EXPECT_EQ(run.number("dump_error"), CUDA_SUCCESS) << run.describe();
  EXPECT_EQ(run.number("dump_terminated"), 1) << "the buffer is not null-terminated";
  EXPECT_EQ(run.number("entries_after_iterator"), 3) << "three errors were logged after the iterator\n"
                                                     << run.describe();
  // "the actual number of bytes written": the text, with or without its terminating null.
  EXPECT_GE(run.number("dump_size"), run.number("dump_length"));
  EXPECT_LE(run.number("dump_size"), run.number("dump_length") + 1);
  EXPECT_EQ(run.number("second_dump_error"), CUDA_SUCCESS) << run.describe();
  EXPECT_EQ(run.number("entries_in_second_dump"), 0) << "the first dump did not move the iterator to the end";
}

CHILD_PROCESS_RULE_F(ErrorLogApi, BufferKeepsTheLast100Entries, "PG12.9 23.5",
                     "the log buffer is limited to 100 entries; after that the oldest entries are replaced") {
  const ChildRun& run = logs_api();
  ASSERT_TRUE(run.passed()) << run.describe();
  EXPECT_EQ(run.number("full_dump_error"), CUDA_SUCCESS) << run.describe();
  EXPECT_EQ(run.number("entries_in_full_dump"), 100) << "156 errors were logged in all\n" << run.describe();
}

CHILD_PROCESS_RULE_F(ErrorLogApi, DumpToFileWritesTheBuffer, "PG12.9 23.4",
                     "cuLogsDumpToFile dumps the error log buffer to the named file") {
  const ChildRun& run = logs_api();
  ASSERT_TRUE(run.passed()) << run.describe();
  EXPECT_EQ(run.number("file_dump_error"), CUDA_SUCCESS) << run.describe();
  std::ifstream file(dump_path());
  ASSERT_TRUE(file.good()) << dump_path() << " was not written";
  std::stringstream text;
  text << file.rdbuf();
  EXPECT_EQ(entries_of_the_logged_error(text.str()), 100) << "the file holds:\n" << text.str();
}

}  // namespace
}  // namespace cuconform::runtime
