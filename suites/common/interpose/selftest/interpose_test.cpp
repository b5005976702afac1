// The interposer's self-test, on a machine without a GPU: each case runs this program again under
// LD_PRELOAD=libcuconform-interpose.so with one operator named, against the fake driver (fake_driver.cpp) opened
// the way the CUDA runtime opens libcuda.so.1 (dlopen, then dlsym of cuGetProcAddress_v2 or of a versioned entry
// point), and checks that the library is loaded, that the operator changes what the wrapped call does, that every
// other call is untouched and that the calls are counted in CUCONFORM_RUNTIME_CALLS, each family's operators
// counting as changed exactly the calls they change (a call an operator passes through unchanged is not); and that
// the census (every operator's entry points wrapped) counts the calls and changes none of them, counting instead
// the calls each operator would change. A case named
// `<operator>:<what>` runs under <operator> too.
//
//   cuconform-interpose-selftest [INTERPOSER FAKE_DRIVER]   (default: the libraries this build made)
#include <cuda.h>
#include <dirent.h>
#include <dlfcn.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace {

using GetProc = CUresult (*)(const char*, void**, int, cuuint64_t, CUdriverProcAddressQueryResult*);

struct Driver {
  void* library = nullptr;
  GetProc get_proc = nullptr;
  const char* (*last_call)() = nullptr;

  template <class F>
  F entry(const char* name, int version = CUDA_VERSION) {
    void* function = nullptr;
    CUdriverProcAddressQueryResult status;
    if (get_proc(name, &function, version, CU_GET_PROC_ADDRESS_LEGACY_STREAM, &status) != CUDA_SUCCESS) {
      return nullptr;
    }
    return reinterpret_cast<F>(function);
  }
  std::string last() const { return last_call(); }
};

int failures = 0;

bool in_interposer(void* function) {
  Dl_info info{};
  return dladdr(function, &info) && info.dli_fname && std::strstr(info.dli_fname, "libcuconform-interpose") != nullptr;
}

void expect(bool condition, const std::string& what) {
  if (!condition) {
    std::fprintf(stderr, "FAILED: %s\n", what.c_str());
    ++failures;
  }
}

// --- the cases, each run in a child process under the interposer ----------------------------------------------

// No operator: every entry point is the driver's own, and nothing is counted.
void untouched(Driver& d) {
  auto wait = d.entry<decltype(&cuStreamWaitEvent)>("cuStreamWaitEvent");
  expect(!in_interposer(reinterpret_cast<void*>(wait)),
         "without an operator cuGetProcAddress returns the driver's own function");
  wait(reinterpret_cast<CUstream>(0x42), nullptr, 0);
  expect(d.last() == "cuStreamWaitEvent stream=42", "the call reaches the driver: " + d.last());
}

void stream_wait_event_dropped(Driver& d) {
  auto wait = d.entry<decltype(&cuStreamWaitEvent)>("cuStreamWaitEvent");
  expect(in_interposer(reinterpret_cast<void*>(wait)), "a wrapper is handed out");
  expect(wait(reinterpret_cast<CUstream>(0x42), nullptr, 0) == CUDA_SUCCESS, "the dropped wait reports success");
  expect(d.last().empty(), "the driver never sees the wait: " + d.last());
  // The runtime linked into the suite asks at the version it first used an entry point; the fake driver, like the
  // real one for an unchanged signature, answers with today's function, so that query gets the wrapper too.
  auto asked_at_2000 = d.entry<decltype(&cuStreamWaitEvent)>("cuStreamWaitEvent", 2000);
  expect(in_interposer(reinterpret_cast<void*>(asked_at_2000)),
         "a query at an older version that the driver answers with today's function gets the wrapper");
}

void stream_wait_event_other_stream(Driver& d) {
  auto wait = d.entry<decltype(&cuStreamWaitEvent)>("cuStreamWaitEvent");
  wait(reinterpret_cast<CUstream>(0x42), nullptr, 0);
  expect(d.last() == "cuStreamWaitEvent stream=5001", "the wait goes to a non-blocking stream of its own: " + d.last());
}

void memset_value_changed(Driver& d) {
  auto set = d.entry<decltype(&cuMemsetD32)>("cuMemsetD32");
  set(0x1000, 0x10, 8);
  expect(d.last() == "cuMemsetD32 value=11 count=8", "the value's lowest bit is flipped: " + d.last());
  auto wait = d.entry<decltype(&cuStreamWaitEvent)>("cuStreamWaitEvent");
  expect(!in_interposer(reinterpret_cast<void*>(wait)),
         "an entry point the operator does not wrap is the driver's own");
}

void graph_edge_dropped(Driver& d) {
  auto add = d.entry<decltype(&cuGraphAddEmptyNode)>("cuGraphAddEmptyNode");
  CUgraphNode node = nullptr;
  CUgraphNode dependencies[2] = {};
  add(&node, nullptr, dependencies, 2);
  expect(d.last() == "cuGraphAddEmptyNode dependencies=1", "the last dependency is dropped: " + d.last());
}

void pool_attribute_stale(Driver& d) {
  auto get = d.entry<decltype(&cuMemPoolGetAttribute)>("cuMemPoolGetAttribute");
  cuuint64_t first = 0, second = 0;
  get(nullptr, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &first);
  get(nullptr, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &second);
  expect(first == 1000 && second == 1000, "the second query reports the first value: " + std::to_string(second));
}

// The runtime may also take an entry point by the name cuda.h gives it (dlsym of cuMemAlloc_v2).
void malloc_misaligned(Driver& d) {
  auto allocate = reinterpret_cast<decltype(&cuMemAlloc)>(dlsym(d.library, "cuMemAlloc_v2"));
  auto free = reinterpret_cast<decltype(&cuMemFree)>(dlsym(d.library, "cuMemFree_v2"));
  CUdeviceptr pointer = 0;
  expect(allocate(&pointer, 100) == CUDA_SUCCESS && pointer % 256 == 16, "the allocation is 16 bytes off 256");
  free(pointer);
  expect(d.last() == "cuMemFree pointer=100000", "the free gives back the driver's pointer: " + d.last());
}

// --- changed calls: a call the operator changes is counted as changed, one it passes through is not ---------------

// streams and events: only an event created without timing changes.
void event_disable_timing_ignored(Driver& d) {
  auto create = d.entry<decltype(&cuEventCreate)>("cuEventCreate");
  CUevent event = nullptr;
  create(&event, CU_EVENT_DISABLE_TIMING);
  expect(d.last() == "cuEventCreate flags=0", "the event is created with timing: " + d.last());
  create(&event, CU_EVENT_DEFAULT);
  expect(d.last() == "cuEventCreate flags=0", "a default event is the one asked for: " + d.last());
}

// The same operator where no call carries the flag: entered, nothing changed (the run is the baseline's).
void event_created_with_default_flags(Driver& d) {
  auto create = d.entry<decltype(&cuEventCreate)>("cuEventCreate");
  expect(in_interposer(reinterpret_cast<void*>(create)), "the operator wraps cuEventCreate");
  CUevent event = nullptr;
  create(&event, CU_EVENT_DEFAULT);
  expect(d.last() == "cuEventCreate flags=0", "a default event is the one asked for: " + d.last());
}

// graphs: a node added with no dependency keeps its empty list.
void graph_edge_dropped_with_and_without_dependencies(Driver& d) {
  graph_edge_dropped(d);
  auto add = d.entry<decltype(&cuGraphAddEmptyNode)>("cuGraphAddEmptyNode");
  CUgraphNode node = nullptr;
  add(&node, nullptr, nullptr, 0);
  expect(d.last() == "cuGraphAddEmptyNode dependencies=0", "a root node is added as asked: " + d.last());
}

// memory: only an out-of-memory result changes.
void malloc_out_of_memory_to_invalid_value(Driver& d) {
  auto allocate = d.entry<decltype(&cuMemAlloc)>("cuMemAlloc");
  CUdeviceptr pointer = 0;
  expect(allocate(&pointer, 100) == CUDA_SUCCESS && pointer == 0x100000, "an allocation that fits is the driver's");
  expect(allocate(&pointer, size_t{1} << 41) == CUDA_ERROR_INVALID_VALUE,
         "an allocation the device cannot hold reports invalid value instead of out of memory");
}

// memory: a count of 1 halved (rounded up) is 1, unchanged.
void memset_count_halved(Driver& d) {
  auto set = d.entry<decltype(&cuMemsetD32)>("cuMemsetD32");
  set(0x1000, 0x10, 1);
  expect(d.last() == "cuMemsetD32 value=10 count=1", "a set of one element is whole: " + d.last());
  set(0x1000, 0x10, 8);
  expect(d.last() == "cuMemsetD32 value=10 count=4", "a set of 8 elements sets 4: " + d.last());
}

// launches: only a launch the driver rejects changes.
void launch_error_swallowed(Driver& d) {
  auto launch = d.entry<decltype(&cuLaunchKernel)>("cuLaunchKernel");
  expect(launch(nullptr, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, nullptr) == CUDA_SUCCESS, "a valid launch succeeds");
  expect(launch(nullptr, 0, 1, 1, 32, 1, 1, 0, nullptr, nullptr, nullptr) == CUDA_SUCCESS,
         "a rejected launch reports success");
  expect(d.last() == "cuLaunchKernel gx=0", "the driver saw the rejected launch: " + d.last());
}

// textures: a texture point-filtered already is created as asked.
void texture_filter_mode_point(Driver& d) {
  auto create = d.entry<decltype(&cuTexObjectCreate)>("cuTexObjectCreate");
  CUtexObject texture = 0;
  CUDA_RESOURCE_DESC resource{};
  CUDA_TEXTURE_DESC description{};
  description.filterMode = CU_TR_FILTER_MODE_LINEAR;
  create(&texture, &resource, &description, nullptr);
  expect(d.last() == "cuTexObjectCreate filter=0", "a linear texture is point-filtered: " + d.last());
  description.filterMode = CU_TR_FILTER_MODE_POINT;
  create(&texture, &resource, &description, nullptr);
  expect(d.last() == "cuTexObjectCreate filter=0", "a point-filtered texture is the one asked for: " + d.last());
}

void unknown_operator(Driver& d) { untouched(d); }

// The census: the entry points of every operator are wrappers, each call reaches the driver as it was made.
void census(Driver& d) {
  auto wait = d.entry<decltype(&cuStreamWaitEvent)>("cuStreamWaitEvent");
  expect(in_interposer(reinterpret_cast<void*>(wait)), "the census wraps cuStreamWaitEvent");
  wait(reinterpret_cast<CUstream>(0x42), nullptr, 0);
  expect(d.last() == "cuStreamWaitEvent stream=42", "the census's wait is the one made: " + d.last());
  auto set = d.entry<decltype(&cuMemsetD32)>("cuMemsetD32");
  expect(in_interposer(reinterpret_cast<void*>(set)), "the census wraps cuMemsetD32");
  set(0x1000, 0x10, 8);
  expect(d.last() == "cuMemsetD32 value=10 count=8", "the census's memset is the one made: " + d.last());
  auto add = d.entry<decltype(&cuGraphAddEmptyNode)>("cuGraphAddEmptyNode");
  CUgraphNode node = nullptr;
  CUgraphNode dependencies[2] = {};
  add(&node, nullptr, dependencies, 2);
  expect(d.last() == "cuGraphAddEmptyNode dependencies=2", "the census keeps every dependency: " + d.last());
  auto get = d.entry<decltype(&cuMemPoolGetAttribute)>("cuMemPoolGetAttribute");
  cuuint64_t first = 0, second = 0;
  get(nullptr, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &first);
  get(nullptr, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &second);
  expect(first == 1000 && second == 1001, "the census reports each query's value: " + std::to_string(second));
  auto type = d.entry<decltype(&cuPointerGetAttribute)>("cuPointerGetAttribute");
  unsigned int memory = 0;
  type(&memory, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, 0x1000);
  expect(memory == CU_MEMORYTYPE_DEVICE, "the census reports the driver's memory type: " + std::to_string(memory));
  auto allocate = reinterpret_cast<decltype(&cuMemAlloc)>(dlsym(d.library, "cuMemAlloc_v2"));
  auto free = reinterpret_cast<decltype(&cuMemFree)>(dlsym(d.library, "cuMemFree_v2"));
  expect(in_interposer(reinterpret_cast<void*>(allocate)), "the census wraps cuMemAlloc_v2");
  CUdeviceptr pointer = 0;
  expect(allocate(&pointer, 100) == CUDA_SUCCESS && pointer == 0x100000, "the census's allocation is the driver's");
  free(pointer);
  expect(d.last() == "cuMemFree pointer=100000", "the census's free is the one made: " + d.last());
  auto create = d.entry<decltype(&cuEventCreate)>("cuEventCreate");
  CUevent event = nullptr;
  create(&event, CU_EVENT_DEFAULT);  // a call that event-disable-timing-ignored would not change
#if CUDA_VERSION >= 13000
  // At 13.0 cuCtxSynchronize takes a context (cudaTypedefs.h: PFN_cuCtxSynchronize_v13000): the wrapper passes it on.
  auto synchronize = d.entry<CUresult (*)(CUcontext)>("cuCtxSynchronize");
  expect(in_interposer(reinterpret_cast<void*>(synchronize)), "the census wraps cuCtxSynchronize");
  synchronize(reinterpret_cast<CUcontext>(0xc7));
  expect(d.last() == "cuCtxSynchronize_v2 context=c7", "the census passes the context on: " + d.last());
  auto old = d.entry<CUresult (*)()>("cuCtxSynchronize", 2000);  // another function: not wrapped
  expect(!in_interposer(reinterpret_cast<void*>(old)), "cuCtxSynchronize asked at 2.0 is the driver's own");
#endif
  auto current = d.entry<decltype(&cuCtxGetCurrent)>("cuCtxGetCurrent");
  expect(!in_interposer(reinterpret_cast<void*>(current)), "an entry point no operator wraps is the driver's own");
}

// What the census counted as calls `op` would change: its first one's marker and the exit's "<op> <calls>" line.
bool would(const std::map<std::string, std::string>& files, const std::string& op, const std::string& calls) {
  bool marker = false, line = false;
  for (const auto& [name, text] : files) {
    if (name.rfind("would." + op + ".", 0) == 0) marker = true;
    if (name.size() > 6 && name.compare(name.size() - 6, 6, ".would") == 0 &&
        ("\n" + text).find("\n" + op + " " + calls + "\n") != std::string::npos) {
      line = true;
    }
  }
  return calls == "0" ? !marker && !line : marker && line;
}

// The operator a case runs under: its name up to a ':'.
std::string operator_of(const std::string& name) { return name.substr(0, name.find(':')); }

const std::map<std::string, std::function<void(Driver&)>> kCases = {
    {"", untouched},
    {"stream-wait-event-dropped", stream_wait_event_dropped},
    {"stream-wait-event-other-stream", stream_wait_event_other_stream},
    {"memset-value-changed", memset_value_changed},
    {"graph-edge-dropped", graph_edge_dropped_with_and_without_dependencies},
    {"event-disable-timing-ignored", event_disable_timing_ignored},
    {"event-disable-timing-ignored:default-flags-only", event_created_with_default_flags},
    {"malloc-out-of-memory-to-invalid-value", malloc_out_of_memory_to_invalid_value},
    {"memset-count-halved", memset_count_halved},
    {"launch-error-swallowed", launch_error_swallowed},
    {"texture-filter-mode-point", texture_filter_mode_point},
    {"pool-attribute-stale", pool_attribute_stale},
    {"malloc-misaligned", malloc_misaligned},
    {"no-such-operator", unknown_operator},
    {"census", census},
};

int run_case(const std::string& name, const char* fake_driver) {
  Driver d;
  d.library = dlopen(fake_driver, RTLD_NOW | RTLD_LOCAL);
  if (!d.library) {
    std::fprintf(stderr, "cannot open %s: %s\n", fake_driver, dlerror());
    return 2;
  }
  d.get_proc = reinterpret_cast<GetProc>(dlsym(d.library, "cuGetProcAddress_v2"));
  d.last_call = reinterpret_cast<const char* (*)()>(dlsym(d.library, "fake_last_call"));
  expect(d.get_proc && d.last_call, "the fake driver's entry points are found");
  if (!failures) {
    expect(in_interposer(reinterpret_cast<void*>(d.get_proc)),
           "cuGetProcAddress_v2 is the interposer's (the library is loaded)");
    kCases.at(name)(d);
  }
  return failures ? 1 : 0;
}

// --- the parent: each case in a child process, then what it counted ---------------------------------------------

std::map<std::string, std::string> files_in(const std::string& dir) {
  std::map<std::string, std::string> found;
  if (DIR* listing = opendir(dir.c_str())) {
    while (dirent* entry = readdir(listing)) {
      std::string name = entry->d_name;
      if (name == "." || name == "..") continue;
      std::ifstream in(dir + "/" + name);
      std::stringstream text;
      text << in.rdbuf();
      found[name] = text.str();
    }
    closedir(listing);
  }
  return found;
}

int spawn_case(const char* self, const std::string& name, const char* interposer, const char* fake_driver,
               const std::string& calls) {
  std::vector<std::string> environment;
  for (char** variable = environ; *variable; ++variable) {
    if (std::strncmp(*variable, "CUCONFORM_RUNTIME_", 18) != 0 && std::strncmp(*variable, "LD_PRELOAD=", 11) != 0) {
      environment.emplace_back(*variable);
    }
  }
  environment.push_back(std::string("LD_PRELOAD=") + interposer);
  environment.push_back("CUCONFORM_RUNTIME_MUTANT=" + operator_of(name));
  environment.push_back("CUCONFORM_RUNTIME_CALLS=" + calls);
  std::vector<char*> envp;
  for (std::string& variable : environment) envp.push_back(variable.data());
  envp.push_back(nullptr);
  std::string case_argument = "--case=" + name;
  std::string driver_argument = std::string("--driver=") + fake_driver;
  char* argv[] = {const_cast<char*>(self), case_argument.data(), driver_argument.data(), nullptr};
  pid_t child = 0;
  if (posix_spawn(&child, self, nullptr, nullptr, argv, envp.data()) != 0) return -1;
  int status = 0;
  waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool ends_with(const std::string& name, const std::string& suffix) {
  return name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// What the library counted of `entry`: its first call's marker, its first change's marker (only when a call was
// changed), and the exit's line "<entry> <calls> <changed>".
struct Count {
  std::string entry, calls, changed;
};

bool counted(const std::map<std::string, std::string>& files, const Count& count) {
  bool marker = false, changed_marker = false, line = false;
  for (const auto& [name, text] : files) {
    if (name.rfind(count.entry + ".", 0) == 0) (ends_with(name, ".changed") ? changed_marker : marker) = true;
    if (ends_with(name, ".calls") &&
        text.find(count.entry + " " + count.calls + " " + count.changed + "\n") != std::string::npos) {
      line = true;
    }
  }
  return marker && line && changed_marker == (count.changed != "0");
}

std::string said(const Count& count) {
  return count.calls + " call(s) of " + count.entry + ", " + count.changed + " changed";
}

}  // namespace

int main(int argc, char** argv) {
  std::string case_name, driver;
  bool is_case = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--case=", 7) == 0) {
      is_case = true;
      case_name = argv[i] + 7;
    } else if (std::strncmp(argv[i], "--driver=", 9) == 0) {
      driver = argv[i] + 9;
    }
  }
  if (is_case) return run_case(case_name, driver.c_str());

  const char* interposer = argc == 3 ? argv[1] : CUCONFORM_INTERPOSE_LIBRARY;
  const char* fake_driver = argc == 3 ? argv[2] : CUCONFORM_FAKE_DRIVER;
  char self[4096] = {};
  ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
  if (length <= 0) return 2;
  // Each case's calls and changed calls (a stale pool attribute's first query reports the driver's value).
  const std::map<std::string, std::vector<Count>> kCounted = {
      {"stream-wait-event-dropped", {{"cuStreamWaitEvent", "1", "1"}}},
      {"memset-value-changed", {{"cuMemsetD32", "1", "1"}}},
      {"graph-edge-dropped", {{"cuGraphAddEmptyNode", "2", "1"}}},
      {"pool-attribute-stale", {{"cuMemPoolGetAttribute", "2", "1"}}},
      {"malloc-misaligned", {{"cuMemAlloc", "1", "1"}, {"cuMemFree", "1", "1"}}},
      {"event-disable-timing-ignored", {{"cuEventCreate", "2", "1"}}},
      {"event-disable-timing-ignored:default-flags-only", {{"cuEventCreate", "1", "0"}}},
      {"malloc-out-of-memory-to-invalid-value", {{"cuMemAlloc", "2", "1"}}},
      {"memset-count-halved", {{"cuMemsetD32", "2", "1"}}},
      {"launch-error-swallowed", {{"cuLaunchKernel", "2", "1"}}},
      {"texture-filter-mode-point", {{"cuTexObjectCreate", "2", "1"}}},
  };
  for (const auto& [name, check] : kCases) {
    char calls[] = "/tmp/cuconform-interpose-XXXXXX";
    if (!mkdtemp(calls)) return 2;
    int code = spawn_case(self, name, interposer, fake_driver, calls);
    auto files = files_in(calls);
    expect(code == 0, "case '" + name + "' exited " + std::to_string(code));
    if (name.empty()) expect(files.empty(), "nothing is counted without an operator");
    if (name == "no-such-operator") expect(files.count("unknown-operator") == 1, "an unknown operator is reported");
    if (name == "census") {
      for (const Count& count : std::vector<Count>{{"cuStreamWaitEvent", "1", "0"},
                                                   {"cuMemsetD32", "1", "0"},
                                                   {"cuGraphAddEmptyNode", "1", "0"},
                                                   {"cuMemPoolGetAttribute", "2", "0"},
                                                   {"cuPointerGetAttribute", "1", "0"},
                                                   {"cuMemAlloc", "1", "0"},
                                                   {"cuMemFree", "1", "0"}}) {
        expect(counted(files, count), "the census counts " + said(count));
      }
      const std::string& table = files["operators"];
      expect(table.find("stream-wait-event-dropped cuStreamWaitEvent\n") != std::string::npos &&
                 table.find("\nmalloc-misaligned cuMemAlloc cuMemAllocAsync") != std::string::npos,
             "the census lists each operator's entry points in 'operators': " + table.substr(0, 80));
      expect(files.count("unknown-operator") == 0, "the census is no unknown operator");
      expect(files.count("would-change") == 1, "the census says that it counts the calls operators would change");
      // The calls each operator would have changed: a wait dropped or sent elsewhere, a memset's value and count, a
      // dependency, the second (different) pool answer, a device pointer's type, an allocation's size; not an
      // allocation that succeeded, nor an event created without flags.
      for (const auto& [op, calls] :
           std::vector<std::pair<std::string, std::string>>{{"stream-wait-event-dropped", "1"},
                                                            {"stream-wait-event-other-stream", "1"},
                                                            {"memset-value-changed", "1"},
                                                            {"memset-count-halved", "1"},
                                                            {"graph-edge-dropped", "1"},
                                                            {"pool-attribute-stale", "1"},
                                                            {"pointer-memory-type-swapped", "1"},
                                                            {"malloc-misaligned", "1"},
                                                            {"malloc-out-of-memory-to-invalid-value", "0"},
                                                            {"event-disable-timing-ignored", "0"},
                                                            {"launch-error-swallowed", "0"}}) {
        expect(would(files, op, calls), "the census counts " + calls + " call(s) that " + op + " would change");
      }
    }
    auto wanted = kCounted.find(name);
    if (wanted != kCounted.end()) {
      for (const Count& count : wanted->second) {
        expect(counted(files, count), "case '" + name + "' counts " + said(count));
      }
    }

    for (const auto& file : files) std::remove((std::string(calls) + "/" + file.first).c_str());
    rmdir(calls);
    std::printf("%-48s %s\n", name.empty() ? "(no operator)" : name.c_str(), code == 0 ? "ok" : "FAILED");
  }
  std::printf("%s\n", failures ? "FAILED" : "all cases passed");
  return failures ? 1 : 0;
}
