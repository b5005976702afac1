// libcuconform-interpose.so: one plausible CUDA driver bug at a time, for the host-side operators of a mutation
// campaign (operators.h lists them; README.md beside this file says how and why).
//
//   LD_PRELOAD=libcuconform-interpose.so CUCONFORM_RUNTIME_MUTANT=<operator> CUCONFORM_RUNTIME_CALLS=<dir> <binary>
//
// The CUDA runtime (linked statically into every suite binary) opens libcuda.so.1 and takes cuGetProcAddress from
// it with dlsym; every driver call it makes afterwards goes through a pointer cuGetProcAddress returned. This
// library defines dlsym: it hands out its own cuGetProcAddress, which hands out a wrapper for each entry point the
// named operator wraps (and the real function for every other). A wrapper counts its calls and, beside them, the
// calls its operator changed (an argument, a result, an output, or the call skipped: changed(), at each branch where
// the mutated path differs from the real call): the first call in a process leaves the file <dir>/<entry>.<pid>, its
// first change <dir>/<entry>.<pid>.changed, and the process's exit writes <dir>/<pid>.calls ("<entry> <calls>
// <changed>" lines), so that the campaign can tell an operator whose entry points an area never calls, or whose
// wrappers changed no call (not applicable: the run was the baseline's), from one its tests did not notice. An
// unknown operator name leaves <dir>/unknown-operator and wraps nothing.
//
// CUCONFORM_RUNTIME_MUTANT=census is the campaign's census: every entry point that any operator wraps gets its
// wrapper, each counts its calls and changes nothing (every change below is behind acts(Op::<operator>) or
// instead(Op::<operator>, ...)), and counts instead the calls each operator would change: the first in a process
// leaves <dir>/would.<operator>.<pid>, the exit writes <dir>/<pid>.would ("<operator> <calls>" lines). <dir>/operators
// lists each operator with the entry points it wraps ("<operator> <entry>..." lines) and <dir>/would-change says that
// the library counts what each operator would change, so that one run of an area tells which operators would change
// anything there at all.
#include "operators.h"

#include <cuda.h>
#include <dlfcn.h>

#if CUDA_VERSION < 13000
// The headers of a 12.x toolkit (docs/results/toolkits.md): CUDA 13.0 gave these entry points the signatures of
// their 12.x versioned forms under the plain names. Wrapped under the plain name, with the versioned form's type and
// symbol, they stand for what a 12.x runtime gets when it asks at its own version (cuGetProcAddress hands out the
// versioned form); one it asks at an older version is not the function a query at this version gets, so it is
// never wrapped (get_proc, below).
#define cuGraphAddNode cuGraphAddNode_v2
#define cuGraphAddDependencies cuGraphAddDependencies_v2
#define cuMemAdvise cuMemAdvise_v2
#define cuMemPrefetchAsync cuMemPrefetchAsync_v2
#else
// CUDA 13.0 gave cuCtxSynchronize a context argument at this version (cudaTypedefs.h: PFN_cuCtxSynchronize_v13000)
// without renaming it in cuda.h, which declares cuCtxSynchronize(void) and cuCtxSynchronize_v2(CUcontext):
// cuGetProcAddress("cuCtxSynchronize") at 13000 hands out cuCtxSynchronize_v2, so the wrapper has its signature.
// (A wrapper without the argument passed the driver whatever the register held: the census's first GPU run, where
// cudaDeviceSynchronize failed in five areas.)
#define cuCtxSynchronize cuCtxSynchronize_v2
#endif
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#define CUCONFORM_STRING(x) #x
#define CUCONFORM_EXPANDED_STRING(x) CUCONFORM_STRING(x)

namespace {

enum Entry : int {
#define CUCONFORM_ENTRY_ID(name) E_##name,
  CUCONFORM_ENTRIES(CUCONFORM_ENTRY_ID)
#undef CUCONFORM_ENTRY_ID
      kEntryCount
};

// The base name cuGetProcAddress takes, and the versioned name cuda.h gives it (cuMemAlloc_v2): the one a dlsym of
// libcuda.so.1 by that name returns, with the same ABI as the wrapper.
struct EntryName {
  const char* base;
  const char* versioned;
};
constexpr EntryName kEntryNames[] = {
#define CUCONFORM_ENTRY_NAME(name) {#name, CUCONFORM_EXPANDED_STRING(name)},
    CUCONFORM_ENTRIES(CUCONFORM_ENTRY_NAME)
#undef CUCONFORM_ENTRY_NAME
};

enum class Op : int {
  none,
  census,  // every operator's entry points wrapped and counted, nothing changed
#define CUCONFORM_OPERATOR_ID(id, name, ...) id,
  CUCONFORM_OPERATORS(CUCONFORM_OPERATOR_ID)
#undef CUCONFORM_OPERATOR_ID
      unknown
};

constexpr const char* kCensus = "census";

struct Operator {
  Op op;
  const char* name;
  std::vector<Entry> entries;
};

const std::vector<Operator>& operators() {
  static const std::vector<Operator>& table = *new std::vector<Operator>{
#define CUCONFORM_OPERATOR_ROW(id, name, ...) {Op::id, name, {__VA_ARGS__}},
      CUCONFORM_OPERATORS(CUCONFORM_OPERATOR_ROW)
#undef CUCONFORM_OPERATOR_ROW
  };
  return table;
}

// --- the operator named by the environment, and the calls it counts ---------------------------------------------

struct Config {
  Op op = Op::none;
  bool wraps[kEntryCount] = {};
  std::string calls_dir;
};

void touch(const std::string& path) {
  int fd = open(path.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
  if (fd >= 0) close(fd);
}

// `text` as the file `path`, whole or not at all (written beside it, then renamed: processes of one area run at once).
void write_file(const std::string& path, const std::string& text) {
  std::string partial = path + "." + std::to_string(getpid()) + ".partial";
  int fd = open(partial.c_str(), O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return;
  bool whole = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  if (!whole || rename(partial.c_str(), path.c_str()) != 0) unlink(partial.c_str());
}

// The census's table: each operator and the entry points it wraps, as operators.h says.
std::string operator_table() {
  std::string lines;
  for (const Operator& op : operators()) {
    lines += op.name;
    for (Entry entry : op.entries) lines += std::string(" ") + kEntryNames[entry].base;
    lines += "\n";
  }
  return lines;
}

// Never destroyed: the exit's write_calls reads it after the static objects are gone.
const Config& config() {
  static const Config& found = *[] {
    auto* made = new Config;
    Config& c = *made;
    const char* dir = getenv("CUCONFORM_RUNTIME_CALLS");
    if (dir && *dir) c.calls_dir = dir;
    const char* name = getenv("CUCONFORM_RUNTIME_MUTANT");
    if (!name || !*name) return made;
    if (std::strcmp(name, kCensus) == 0) {
      c.op = Op::census;
      for (const Operator& op : operators()) {
        for (Entry entry : op.entries) c.wraps[entry] = true;
      }
      if (!c.calls_dir.empty()) {
        write_file(c.calls_dir + "/operators", operator_table());
        touch(c.calls_dir + "/would-change");  // this library counts the calls each operator would change
      }
      return made;
    }
    for (const Operator& op : operators()) {
      if (std::strcmp(op.name, name) == 0) {
        c.op = op.op;
        for (Entry entry : op.entries) c.wraps[entry] = true;
        return made;
      }
    }
    c.op = Op::unknown;
    std::fprintf(stderr, "libcuconform-interpose: CUCONFORM_RUNTIME_MUTANT=%s names no operator\n", name);
    if (!c.calls_dir.empty()) touch(c.calls_dir + "/unknown-operator");
    return made;
  }();
  return found;
}

bool is(Op op) { return config().op == op; }

std::atomic<unsigned long> g_calls[kEntryCount];
std::atomic<unsigned long> g_changed[kEntryCount];

// The marker <dir>/<entry>.<pid><suffix>, left when `count` of `entry` first grows in this process: a process that
// crashes later counts too.
void first_in_process(std::atomic<unsigned long>& count, Entry entry, const char* suffix) {
  if (count.fetch_add(1) == 0 && !config().calls_dir.empty()) {
    touch(config().calls_dir + "/" + kEntryNames[entry].base + "." + std::to_string(getpid()) + suffix);
  }
}

void counted(Entry entry) { first_in_process(g_calls[entry], entry, ""); }

// The operator changes this call of `entry`: an argument, a result or an output differs from the real call's, or
// the driver never sees the call. Called once per call, before the changed call is made (a change that crashes the
// process is counted). A wrapper that reaches none of these is the driver's function for that call.
void changed(Entry entry) { first_in_process(g_changed[entry], entry, ".changed"); }

// A skipped call: the driver never sees it, and the program is told it succeeded.
CUresult skipped(Entry entry) {
  changed(entry);
  return CUDA_SUCCESS;
}

// `mutated` where the program passed (or the driver answered) `original`: a change only when the two differ.
template <class T>
T instead(Entry entry, T original, T mutated) {
  if (!(mutated == original)) changed(entry);
  return mutated;
}

// --- the census: the calls each operator would change ------------------------------------------------------------
//
// A wrapper asks acts(op) only where `op` would change the call (the call is one its operator changes: a wait it
// drops, a launch error it swallows, a flag it clears that was set). Under that operator acts() is true, and the
// wrapper changes the call; in the census it is false, the call stays the program's, and it is counted as one that
// `op` would change. A mutant's processes behave as the census's until the first call its operator changes, so an
// operator that would change no call of an area's census run changes none under the mutant either: its run would be
// the baseline's, and the campaign does not make it (census.py).
constexpr int kOps = static_cast<int>(Op::unknown) + 1;
std::atomic<unsigned long> g_would[kOps];

const char* name_of(Op op) {
  for (const Operator& known : operators()) {
    if (known.op == op) return known.name;
  }
  return "?";
}

bool acts(Op op) {
  if (is(op)) return true;
  if (is(Op::census) && g_would[static_cast<int>(op)].fetch_add(1) == 0 && !config().calls_dir.empty()) {
    touch(config().calls_dir + "/would." + name_of(op) + "." + std::to_string(getpid()));
  }
  return false;
}

// `mutated` under `op` (a change when it differs from `original`); `original` otherwise, counted by the census as a
// call `op` would change when the two differ.
template <class T>
T instead(Op op, Entry entry, T original, T mutated) {
  if (is(op)) return instead(entry, original, mutated);
  if (!(mutated == original)) acts(op);
  return original;
}

// The census's <dir>/<pid>.would: "<operator> <calls it would change>" lines.
void write_would(const std::string& dir) {
  std::string lines;
  for (const Operator& op : operators()) {
    if (unsigned long would = g_would[static_cast<int>(op.op)].load()) {
      lines += std::string(op.name) + " " + std::to_string(would) + "\n";
    }
  }
  if (!lines.empty()) write_file(dir + "/" + std::to_string(getpid()) + ".would", lines);
}

__attribute__((destructor)) void write_calls() {
  const std::string& dir = config().calls_dir;
  if (dir.empty()) return;
  if (is(Op::census)) write_would(dir);
  std::string lines;
  for (int entry = 0; entry < kEntryCount; ++entry) {
    if (unsigned long calls = g_calls[entry].load()) {
      lines += std::string(kEntryNames[entry].base) + " " + std::to_string(calls) + " " +
               std::to_string(g_changed[entry].load()) + "\n";
    }
  }
  if (lines.empty()) return;
  std::string path = dir + "/" + std::to_string(getpid()) + ".calls";
  int fd = open(path.c_str(), O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return;
  ssize_t written = write(fd, lines.data(), lines.size());
  (void)written;
  close(fd);
}

// --- the real driver --------------------------------------------------------------------------------------------

using GetProcV2 = CUresult (*)(const char*, void**, int, cuuint64_t, CUdriverProcAddressQueryResult*);
using GetProcV1 = CUresult (*)(const char*, void**, int, cuuint64_t);
std::atomic<void*> g_get_proc_v2{nullptr};
std::atomic<void*> g_get_proc_v1{nullptr};

// The real function of each wrapped entry, per variant: 0 cuGetProcAddress's default search, 1 the legacy default
// stream, 2 the per-thread default stream (CUdriverProcAddress_flags); each variant has a wrapper of its own.
std::atomic<void*> g_real[kEntryCount][3];

// A driver function the wrappers themselves call, unwrapped.
template <class F>
F driver(const char* name) {
  void* found = nullptr;
  if (auto v2 = reinterpret_cast<GetProcV2>(g_get_proc_v2.load())) {
    CUdriverProcAddressQueryResult status;
    v2(name, &found, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &status);
  } else if (auto v1 = reinterpret_cast<GetProcV1>(g_get_proc_v1.load())) {
    v1(name, &found, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT);
  }
  return reinterpret_cast<F>(found);
}

// A stream of the library's own in the current context: "work goes to another stream" (created once per context;
// non-blocking, so that it orders against nothing the program queued).
CUstream other_stream() {
  static std::mutex mutex;
  static std::map<CUcontext, CUstream> streams;
  CUcontext context = nullptr;
  if (auto current = driver<decltype(&cuCtxGetCurrent)>("cuCtxGetCurrent")) current(&context);
  std::lock_guard<std::mutex> lock(mutex);
  auto found = streams.find(context);
  if (found != streams.end()) return found->second;
  CUstream stream = nullptr;
  if (auto create = driver<decltype(&cuStreamCreate)>("cuStreamCreate")) create(&stream, CU_STREAM_NON_BLOCKING);
  streams[context] = stream;
  return stream;
}

// Fewer dependencies: the last one of a node's list is dropped (a node added after exactly one keeps none).
size_t one_fewer(size_t dependencies) { return dependencies ? dependencies - 1 : 0; }

// A wrapper's first lines: its call counted, `entry` (for changed()), and `real`, the driver's function it stands
// for (`name` is used with ## for the entry, and plain for its type, which cuda.h's macro gives: cuMemAlloc is
// cuMemAlloc_v2).
#define COUNTED(name)                                                        \
  [[maybe_unused]] constexpr Entry entry = E_##name;                         \
  counted(entry);                                                            \
  auto real = reinterpret_cast<decltype(&name)>(g_real[E_##name][V].load()); \
  if (!real) return CUDA_ERROR_NOT_INITIALIZED

// --- streams and events -----------------------------------------------------------------------------------------

template <int V>
CUresult CUDAAPI w_cuStreamWaitEvent(CUstream stream, CUevent event, unsigned int flags) {
  COUNTED(cuStreamWaitEvent);
  if (acts(Op::stream_wait_event_dropped)) return skipped(entry);
  if (acts(Op::stream_wait_event_other_stream)) return real(instead(entry, stream, other_stream()), event, flags);
  return real(stream, event, flags);
}

template <int V>
CUresult CUDAAPI w_cuEventRecord(CUevent event, CUstream stream) {
  COUNTED(cuEventRecord);
  if (acts(Op::event_record_dropped)) return skipped(entry);
  if (acts(Op::event_record_other_stream)) return real(event, instead(entry, stream, other_stream()));
  return real(event, stream);
}

template <int V>
CUresult CUDAAPI w_cuEventRecordWithFlags(CUevent event, CUstream stream, unsigned int flags) {
  COUNTED(cuEventRecordWithFlags);
  if (acts(Op::event_record_dropped)) return skipped(entry);
  if (acts(Op::event_record_other_stream)) return real(event, instead(entry, stream, other_stream()), flags);
  return real(event, stream, flags);
}

template <int V>
CUresult CUDAAPI w_cuStreamSynchronize(CUstream stream) {
  COUNTED(cuStreamSynchronize);
  return acts(Op::stream_synchronize_returns_early) ? skipped(entry) : real(stream);
}

template <int V>
CUresult CUDAAPI w_cuEventSynchronize(CUevent event) {
  COUNTED(cuEventSynchronize);
  return acts(Op::event_synchronize_returns_early) ? skipped(entry) : real(event);
}

#if CUDA_VERSION >= 13000
template <int V>
CUresult CUDAAPI w_cuCtxSynchronize(CUcontext context) {
  COUNTED(cuCtxSynchronize);
  return acts(Op::ctx_synchronize_returns_early) ? skipped(entry) : real(context);
}
#else
template <int V>
CUresult CUDAAPI w_cuCtxSynchronize() {
  COUNTED(cuCtxSynchronize);
  return acts(Op::ctx_synchronize_returns_early) ? skipped(entry) : real();
}
#endif

// event-query-always-complete, stream-query-always-idle: only a NOT_READY answer changes (to success).
CUresult ready(Entry entry, Op op, CUresult result) {
  return result == CUDA_ERROR_NOT_READY && acts(op) ? instead(entry, result, CUDA_SUCCESS) : result;
}

template <int V>
CUresult CUDAAPI w_cuEventQuery(CUevent event) {
  COUNTED(cuEventQuery);
  return ready(entry, Op::event_query_always_complete, real(event));
}

template <int V>
CUresult CUDAAPI w_cuStreamQuery(CUstream stream) {
  COUNTED(cuStreamQuery);
  return ready(entry, Op::stream_query_always_idle, real(stream));
}

template <int V>
CUresult CUDAAPI w_cuEventElapsedTime(float* milliseconds, CUevent start, CUevent end) {
  COUNTED(cuEventElapsedTime);
  CUresult result = real(milliseconds, start, end);
  if (result == CUDA_SUCCESS && milliseconds) {  // 0 stays 0: unchanged
    *milliseconds = instead(Op::event_elapsed_time_halved, entry, *milliseconds, *milliseconds / 2);
  }
  return result;
}

template <int V>
CUresult CUDAAPI w_cuEventCreate(CUevent* event, unsigned int flags) {
  COUNTED(cuEventCreate);
  flags = instead(Op::event_disable_timing_ignored, entry, flags, flags & ~CU_EVENT_DISABLE_TIMING);
  return real(event, flags);
}

template <int V>
CUresult CUDAAPI w_cuStreamCreate(CUstream* stream, unsigned int flags) {
  COUNTED(cuStreamCreate);
  flags = instead(Op::stream_non_blocking_ignored, entry, flags, flags & ~CU_STREAM_NON_BLOCKING);
  return real(stream, flags);
}

template <int V>
CUresult CUDAAPI w_cuStreamCreateWithPriority(CUstream* stream, unsigned int flags, int priority) {
  COUNTED(cuStreamCreateWithPriority);
  flags = instead(Op::stream_non_blocking_ignored, entry, flags, flags & ~CU_STREAM_NON_BLOCKING);
  priority = instead(Op::stream_priority_ignored, entry, priority, 0);
  return real(stream, flags, priority);
}

template <int V>
CUresult CUDAAPI w_cuLaunchHostFunc(CUstream stream, CUhostFn fn, void* data) {
  COUNTED(cuLaunchHostFunc);
  if (fn && acts(Op::host_callback_runs_early)) {
    changed(entry);
    fn(data);  // now, on the calling thread, before the work queued ahead of it
    return CUDA_SUCCESS;
  }
  return real(stream, fn, data);
}

template <int V>
CUresult CUDAAPI w_cuStreamAddCallback(CUstream stream, CUstreamCallback callback, void* data, unsigned int flags) {
  COUNTED(cuStreamAddCallback);
  if (callback && acts(Op::host_callback_runs_early)) {
    changed(entry);
    callback(stream, CUDA_SUCCESS, data);
    return CUDA_SUCCESS;
  }
  return real(stream, callback, data, flags);
}

// --- graphs -----------------------------------------------------------------------------------------------------

// A node added with no dependency keeps its (empty) list: unchanged.
size_t dependencies_kept(Entry entry, size_t count) {
  return instead(Op::graph_edge_dropped, entry, count, one_fewer(count));
}

template <int V>
CUresult CUDAAPI w_cuGraphAddKernelNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies, size_t count,
                                        const CUDA_KERNEL_NODE_PARAMS* params) {
  COUNTED(cuGraphAddKernelNode);
  return real(node, graph, dependencies, dependencies_kept(entry, count), params);
}

template <int V>
CUresult CUDAAPI w_cuGraphAddMemcpyNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies, size_t count,
                                        const CUDA_MEMCPY3D* params, CUcontext context) {
  COUNTED(cuGraphAddMemcpyNode);
  return real(node, graph, dependencies, dependencies_kept(entry, count), params, context);
}

template <int V>
CUresult CUDAAPI w_cuGraphAddMemsetNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies, size_t count,
                                        const CUDA_MEMSET_NODE_PARAMS* params, CUcontext context) {
  COUNTED(cuGraphAddMemsetNode);
  return real(node, graph, dependencies, dependencies_kept(entry, count), params, context);
}

template <int V>
CUresult CUDAAPI w_cuGraphAddHostNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies, size_t count,
                                      const CUDA_HOST_NODE_PARAMS* params) {
  COUNTED(cuGraphAddHostNode);
  return real(node, graph, dependencies, dependencies_kept(entry, count), params);
}

template <int V>
CUresult CUDAAPI w_cuGraphAddChildGraphNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies,
                                            size_t count, CUgraph child) {
  COUNTED(cuGraphAddChildGraphNode);
  return real(node, graph, dependencies, dependencies_kept(entry, count), child);
}

template <int V>
CUresult CUDAAPI w_cuGraphAddEmptyNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies,
                                       size_t count) {
  COUNTED(cuGraphAddEmptyNode);
  return real(node, graph, dependencies, dependencies_kept(entry, count));
}

template <int V>
CUresult CUDAAPI w_cuGraphAddEventRecordNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies,
                                             size_t count, CUevent event) {
  COUNTED(cuGraphAddEventRecordNode);
  return real(node, graph, dependencies, dependencies_kept(entry, count), event);
}

template <int V>
CUresult CUDAAPI w_cuGraphAddEventWaitNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies,
                                           size_t count, CUevent event) {
  COUNTED(cuGraphAddEventWaitNode);
  return real(node, graph, dependencies, dependencies_kept(entry, count), event);
}

template <int V>
CUresult CUDAAPI w_cuGraphAddNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies,
                                  const CUgraphEdgeData* edges, size_t count, CUgraphNodeParams* params) {
  COUNTED(cuGraphAddNode);
  return real(node, graph, dependencies, edges, dependencies_kept(entry, count), params);
}

template <int V>
CUresult CUDAAPI w_cuGraphAddDependencies(CUgraph graph, const CUgraphNode* from, const CUgraphNode* to,
                                          const CUgraphEdgeData* edges, size_t count) {
  COUNTED(cuGraphAddDependencies);
  size_t kept = dependencies_kept(entry, count);
  return kept || !count ? real(graph, from, to, edges, kept) : CUDA_SUCCESS;
}

template <int V>
CUresult CUDAAPI w_cuGraphExecKernelNodeSetParams(CUgraphExec exec, CUgraphNode node,
                                                  const CUDA_KERNEL_NODE_PARAMS* params) {
  COUNTED(cuGraphExecKernelNodeSetParams);
  return acts(Op::graph_exec_kernel_params_not_updated) ? skipped(entry) : real(exec, node, params);
}

template <int V>
CUresult CUDAAPI w_cuGraphExecMemcpyNodeSetParams(CUgraphExec exec, CUgraphNode node, const CUDA_MEMCPY3D* params,
                                                  CUcontext context) {
  COUNTED(cuGraphExecMemcpyNodeSetParams);
  return acts(Op::graph_exec_node_params_not_updated) ? skipped(entry) : real(exec, node, params, context);
}

template <int V>
CUresult CUDAAPI w_cuGraphExecMemsetNodeSetParams(CUgraphExec exec, CUgraphNode node,
                                                  const CUDA_MEMSET_NODE_PARAMS* params, CUcontext context) {
  COUNTED(cuGraphExecMemsetNodeSetParams);
  return acts(Op::graph_exec_node_params_not_updated) ? skipped(entry) : real(exec, node, params, context);
}

template <int V>
CUresult CUDAAPI w_cuGraphExecHostNodeSetParams(CUgraphExec exec, CUgraphNode node,
                                                const CUDA_HOST_NODE_PARAMS* params) {
  COUNTED(cuGraphExecHostNodeSetParams);
  return acts(Op::graph_exec_node_params_not_updated) ? skipped(entry) : real(exec, node, params);
}

template <int V>
CUresult CUDAAPI w_cuGraphExecChildGraphNodeSetParams(CUgraphExec exec, CUgraphNode node, CUgraph child) {
  COUNTED(cuGraphExecChildGraphNodeSetParams);
  return acts(Op::graph_exec_node_params_not_updated) ? skipped(entry) : real(exec, node, child);
}

template <int V>
CUresult CUDAAPI w_cuGraphExecEventRecordNodeSetEvent(CUgraphExec exec, CUgraphNode node, CUevent event) {
  COUNTED(cuGraphExecEventRecordNodeSetEvent);
  return acts(Op::graph_exec_node_params_not_updated) ? skipped(entry) : real(exec, node, event);
}

template <int V>
CUresult CUDAAPI w_cuGraphExecEventWaitNodeSetEvent(CUgraphExec exec, CUgraphNode node, CUevent event) {
  COUNTED(cuGraphExecEventWaitNodeSetEvent);
  return acts(Op::graph_exec_node_params_not_updated) ? skipped(entry) : real(exec, node, event);
}

template <int V>
CUresult CUDAAPI w_cuGraphExecNodeSetParams(CUgraphExec exec, CUgraphNode node, CUgraphNodeParams* params) {
  COUNTED(cuGraphExecNodeSetParams);
  return acts(Op::graph_exec_node_params_not_updated) ? skipped(entry) : real(exec, node, params);
}

template <int V>
CUresult CUDAAPI w_cuGraphExecUpdate(CUgraphExec exec, CUgraph graph, CUgraphExecUpdateResultInfo* info) {
  COUNTED(cuGraphExecUpdate);
  if (!acts(Op::graph_exec_update_ignored)) return real(exec, graph, info);
  if (info) {
    info->result = CU_GRAPH_EXEC_UPDATE_SUCCESS;
    info->errorNode = nullptr;
    info->errorFromNode = nullptr;
  }
  return skipped(entry);  // reported done, nothing updated
}

template <int V>
CUresult CUDAAPI w_cuGraphLaunch(CUgraphExec exec, CUstream stream) {
  COUNTED(cuGraphLaunch);
  return real(exec, acts(Op::graph_launch_other_stream) ? instead(entry, stream, other_stream()) : stream);
}

template <int V>
CUresult CUDAAPI w_cuGraphNodeSetEnabled(CUgraphExec exec, CUgraphNode node, unsigned int enabled) {
  COUNTED(cuGraphNodeSetEnabled);
  return acts(Op::graph_node_enable_ignored) ? skipped(entry) : real(exec, node, enabled);
}

template <int V>
CUresult CUDAAPI w_cuGraphConditionalHandleCreate(CUgraphConditionalHandle* handle, CUgraph graph, CUcontext context,
                                                  unsigned int default_value, unsigned int flags) {
  COUNTED(cuGraphConditionalHandleCreate);
  flags = instead(Op::graph_conditional_default_ignored, entry, flags, flags & ~CU_GRAPH_COND_ASSIGN_DEFAULT);
  return real(handle, graph, context, default_value, flags);
}

template <int V>
CUresult CUDAAPI w_cuGraphRetainUserObject(CUgraph graph, CUuserObject object, unsigned int count, unsigned int flags) {
  COUNTED(cuGraphRetainUserObject);
  return acts(Op::graph_user_object_not_retained) ? skipped(entry) : real(graph, object, count, flags);
}

// --- copies and sets ---------------------------------------------------------------------------------------------

// A copy of 0 bytes stays one: unchanged.
size_t bytes_copied(Entry entry, size_t bytes) { return instead(Op::memcpy_copies_half, entry, bytes, bytes / 2); }
CUstream copy_stream(Entry entry, CUstream stream) {
  return acts(Op::memcpy_async_other_stream) ? instead(entry, stream, other_stream()) : stream;
}

template <int V>
CUresult CUDAAPI w_cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
  COUNTED(cuMemcpy);
  return real(dst, src, bytes_copied(entry, bytes));
}

template <int V>
CUresult CUDAAPI w_cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream) {
  COUNTED(cuMemcpyAsync);
  return real(dst, src, bytes_copied(entry, bytes), copy_stream(entry, stream));
}

template <int V>
CUresult CUDAAPI w_cuMemcpyHtoD(CUdeviceptr dst, const void* src, size_t bytes) {
  COUNTED(cuMemcpyHtoD);
  return real(dst, src, bytes_copied(entry, bytes));
}

template <int V>
CUresult CUDAAPI w_cuMemcpyDtoH(void* dst, CUdeviceptr src, size_t bytes) {
  COUNTED(cuMemcpyDtoH);
  return real(dst, src, bytes_copied(entry, bytes));
}

template <int V>
CUresult CUDAAPI w_cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
  COUNTED(cuMemcpyDtoD);
  return real(dst, src, bytes_copied(entry, bytes));
}

template <int V>
CUresult CUDAAPI w_cuMemcpyHtoDAsync(CUdeviceptr dst, const void* src, size_t bytes, CUstream stream) {
  COUNTED(cuMemcpyHtoDAsync);
  return real(dst, src, bytes_copied(entry, bytes), copy_stream(entry, stream));
}

template <int V>
CUresult CUDAAPI w_cuMemcpyDtoHAsync(void* dst, CUdeviceptr src, size_t bytes, CUstream stream) {
  COUNTED(cuMemcpyDtoHAsync);
  return real(dst, src, bytes_copied(entry, bytes), copy_stream(entry, stream));
}

template <int V>
CUresult CUDAAPI w_cuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream) {
  COUNTED(cuMemcpyDtoDAsync);
  return real(dst, src, bytes_copied(entry, bytes), copy_stream(entry, stream));
}

// The last row of a 2D copy, or the last slice (else row) of a 3D one, is not copied (a copy of one row is whole).
CUDA_MEMCPY2D fewer_rows(Entry entry, CUDA_MEMCPY2D copy) {
  if (copy.Height > 1 && acts(Op::memcpy_2d_3d_last_row_dropped)) {
    changed(entry);
    copy.Height -= 1;
  }
  return copy;
}
CUDA_MEMCPY3D fewer_rows(Entry entry, CUDA_MEMCPY3D copy) {
  if ((copy.Depth <= 1 && copy.Height <= 1) || !acts(Op::memcpy_2d_3d_last_row_dropped)) return copy;
  changed(entry);
  if (copy.Depth > 1) {
    copy.Depth -= 1;
  } else {
    copy.Height -= 1;
  }
  return copy;
}

template <int V>
CUresult CUDAAPI w_cuMemcpy2D(const CUDA_MEMCPY2D* copy) {
  COUNTED(cuMemcpy2D);
  if (!copy) return real(copy);
  CUDA_MEMCPY2D shorter = fewer_rows(entry, *copy);
  return real(&shorter);
}

template <int V>
CUresult CUDAAPI w_cuMemcpy2DUnaligned(const CUDA_MEMCPY2D* copy) {
  COUNTED(cuMemcpy2DUnaligned);
  if (!copy) return real(copy);
  CUDA_MEMCPY2D shorter = fewer_rows(entry, *copy);
  return real(&shorter);
}

template <int V>
CUresult CUDAAPI w_cuMemcpy2DAsync(const CUDA_MEMCPY2D* copy, CUstream stream) {
  COUNTED(cuMemcpy2DAsync);
  if (!copy) return real(copy, stream);
  CUDA_MEMCPY2D shorter = fewer_rows(entry, *copy);
  return real(&shorter, stream);
}

template <int V>
CUresult CUDAAPI w_cuMemcpy3D(const CUDA_MEMCPY3D* copy) {
  COUNTED(cuMemcpy3D);
  if (!copy) return real(copy);
  CUDA_MEMCPY3D shorter = fewer_rows(entry, *copy);
  return real(&shorter);
}

template <int V>
CUresult CUDAAPI w_cuMemcpy3DAsync(const CUDA_MEMCPY3D* copy, CUstream stream) {
  COUNTED(cuMemcpy3DAsync);
  if (!copy) return real(copy, stream);
  CUDA_MEMCPY3D shorter = fewer_rows(entry, *copy);
  return real(&shorter, stream);
}

// memset-value-changed: the value's lowest bit flipped; memset-count-halved: the first half (rounded up) is set, so
// a count of 0 or 1 is unchanged.
template <class T>
T set_value(Entry entry, T value) {
  return instead(Op::memset_value_changed, entry, value, static_cast<T>(value ^ 1u));
}
size_t set_count(Entry entry, size_t count) { return instead(Op::memset_count_halved, entry, count, (count + 1) / 2); }

template <int V>
CUresult CUDAAPI w_cuMemsetD8(CUdeviceptr dst, unsigned char value, size_t count) {
  COUNTED(cuMemsetD8);
  return real(dst, set_value(entry, value), set_count(entry, count));
}

template <int V>
CUresult CUDAAPI w_cuMemsetD16(CUdeviceptr dst, unsigned short value, size_t count) {
  COUNTED(cuMemsetD16);
  return real(dst, set_value(entry, value), set_count(entry, count));
}

template <int V>
CUresult CUDAAPI w_cuMemsetD32(CUdeviceptr dst, unsigned int value, size_t count) {
  COUNTED(cuMemsetD32);
  return real(dst, set_value(entry, value), set_count(entry, count));
}

template <int V>
CUresult CUDAAPI w_cuMemsetD8Async(CUdeviceptr dst, unsigned char value, size_t count, CUstream stream) {
  COUNTED(cuMemsetD8Async);
  return real(dst, set_value(entry, value), set_count(entry, count), stream);
}

template <int V>
CUresult CUDAAPI w_cuMemsetD16Async(CUdeviceptr dst, unsigned short value, size_t count, CUstream stream) {
  COUNTED(cuMemsetD16Async);
  return real(dst, set_value(entry, value), set_count(entry, count), stream);
}

template <int V>
CUresult CUDAAPI w_cuMemsetD32Async(CUdeviceptr dst, unsigned int value, size_t count, CUstream stream) {
  COUNTED(cuMemsetD32Async);
  return real(dst, set_value(entry, value), set_count(entry, count), stream);
}

template <int V>
CUresult CUDAAPI w_cuMemsetD2D8(CUdeviceptr dst, size_t pitch, unsigned char value, size_t width, size_t height) {
  COUNTED(cuMemsetD2D8);
  return real(dst, pitch, set_value(entry, value), width, set_count(entry, height));
}

template <int V>
CUresult CUDAAPI w_cuMemsetD2D32(CUdeviceptr dst, size_t pitch, unsigned int value, size_t width, size_t height) {
  COUNTED(cuMemsetD2D32);
  return real(dst, pitch, set_value(entry, value), width, set_count(entry, height));
}

template <int V>
CUresult CUDAAPI w_cuMemsetD2D8Async(CUdeviceptr dst, size_t pitch, unsigned char value, size_t width, size_t height,
                                     CUstream stream) {
  COUNTED(cuMemsetD2D8Async);
  return real(dst, pitch, set_value(entry, value), width, set_count(entry, height), stream);
}

template <int V>
CUresult CUDAAPI w_cuMemsetD2D32Async(CUdeviceptr dst, size_t pitch, unsigned int value, size_t width, size_t height,
                                      CUstream stream) {
  COUNTED(cuMemsetD2D32Async);
  return real(dst, pitch, set_value(entry, value), width, set_count(entry, height), stream);
}

// --- allocations -------------------------------------------------------------------------------------------------

// malloc-misaligned: an allocation 16 bytes past a 256-byte boundary (PG: cudaMalloc's memory is aligned to at least
// 256 bytes); the shifted pointers are kept, so that the free gives the driver the pointer it returned.
constexpr size_t kMisalignment = 16;
std::mutex g_shifted_mutex;
std::set<CUdeviceptr> g_shifted;

// malloc-out-of-memory-to-invalid-value: only an out-of-memory result changes; every other one is the driver's.
CUresult allocation_result(Entry entry, CUresult result) {
  if (result == CUDA_ERROR_OUT_OF_MEMORY && acts(Op::malloc_out_of_memory_to_invalid_value)) {
    return instead(entry, result, CUDA_ERROR_INVALID_VALUE);
  }
  return result;
}

// The size asked of the driver: under malloc-misaligned every allocation is changed (16 bytes more, the pointer
// shifted by allocated() when it succeeds: one change of one call).
size_t allocation_size(Entry entry, size_t bytes) {
  return instead(Op::malloc_misaligned, entry, bytes, bytes + kMisalignment);
}

CUresult allocated(Entry entry, CUresult result, CUdeviceptr* pointer) {
  if (is(Op::malloc_misaligned) && result == CUDA_SUCCESS && pointer && *pointer) {
    *pointer += kMisalignment;
    std::lock_guard<std::mutex> lock(g_shifted_mutex);
    g_shifted.insert(*pointer);
  }
  return allocation_result(entry, result);
}

// A free of a pointer the operator shifted gives the driver its own pointer back (a change); any other is unchanged.
CUdeviceptr unshifted(Entry entry, CUdeviceptr pointer) {
  std::lock_guard<std::mutex> lock(g_shifted_mutex);
  if (!g_shifted.erase(pointer)) return pointer;
  changed(entry);
  return pointer - kMisalignment;
}

template <int V>
CUresult CUDAAPI w_cuMemAlloc(CUdeviceptr* pointer, size_t bytes) {
  COUNTED(cuMemAlloc);
  return allocated(entry, real(pointer, allocation_size(entry, bytes)), pointer);
}

template <int V>
CUresult CUDAAPI w_cuMemAllocManaged(CUdeviceptr* pointer, size_t bytes, unsigned int flags) {
  COUNTED(cuMemAllocManaged);
  if (flags == CU_MEM_ATTACH_HOST && acts(Op::managed_attach_host_ignored)) {
    changed(entry);
    flags = CU_MEM_ATTACH_GLOBAL;
  }
  return allocation_result(entry, real(pointer, bytes, flags));
}

template <int V>
CUresult CUDAAPI w_cuMemAllocAsync(CUdeviceptr* pointer, size_t bytes, CUstream stream) {
  COUNTED(cuMemAllocAsync);
  return allocated(entry, real(pointer, allocation_size(entry, bytes), stream), pointer);
}

template <int V>
CUresult CUDAAPI w_cuMemAllocFromPoolAsync(CUdeviceptr* pointer, size_t bytes, CUmemoryPool pool, CUstream stream) {
  COUNTED(cuMemAllocFromPoolAsync);
  return allocated(entry, real(pointer, allocation_size(entry, bytes), pool, stream), pointer);
}

template <int V>
CUresult CUDAAPI w_cuMemAllocPitch(CUdeviceptr* pointer, size_t* pitch, size_t width, size_t height,
                                   unsigned int element_bytes) {
  COUNTED(cuMemAllocPitch);
  return allocation_result(entry, real(pointer, pitch, width, height, element_bytes));
}

template <int V>
CUresult CUDAAPI w_cuMemAllocHost(void** pointer, size_t bytes) {
  COUNTED(cuMemAllocHost);
  return allocation_result(entry, real(pointer, bytes));
}

template <int V>
CUresult CUDAAPI w_cuMemHostAlloc(void** pointer, size_t bytes, unsigned int flags) {
  COUNTED(cuMemHostAlloc);
  return allocation_result(entry, real(pointer, bytes, flags));
}

template <int V>
CUresult CUDAAPI w_cuMemFree(CUdeviceptr pointer) {
  COUNTED(cuMemFree);
  return real(unshifted(entry, pointer));
}

template <int V>
CUresult CUDAAPI w_cuMemFreeAsync(CUdeviceptr pointer, CUstream stream) {
  COUNTED(cuMemFreeAsync);
  return real(unshifted(entry, pointer),
              acts(Op::free_async_other_stream) ? instead(entry, stream, other_stream()) : stream);
}

// --- pools, pointers, unified and virtual memory -----------------------------------------------------------------

// pool-attribute-stale: a pool's 64-bit attributes (release threshold, reserved and used memory, current and high)
// keep the value of their first query.
bool is_64_bit(CUmemPool_attribute attribute) {
  switch (attribute) {
    case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
    case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT:
    case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
    case CU_MEMPOOL_ATTR_USED_MEM_CURRENT:
    case CU_MEMPOOL_ATTR_USED_MEM_HIGH: return true;
    default: return false;
  }
}

template <int V>
CUresult CUDAAPI w_cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attribute, void* value) {
  COUNTED(cuMemPoolGetAttribute);
  CUresult result = real(pool, attribute, value);
  bool counted = is(Op::pool_attribute_stale) || is(Op::census);
  if (result != CUDA_SUCCESS || !value || !counted || !is_64_bit(attribute)) return result;
  static std::mutex mutex;
  static std::map<std::pair<CUmemoryPool, int>, cuuint64_t> first;
  std::lock_guard<std::mutex> lock(mutex);
  cuuint64_t& reported = *static_cast<cuuint64_t*>(value);
  auto seen = first.emplace(std::make_pair(pool, static_cast<int>(attribute)), reported);
  reported = instead(Op::pool_attribute_stale, entry, reported, seen.first->second);  // a value that stayed: unchanged
  return result;
}

template <int V>
CUresult CUDAAPI w_cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attribute, void* value) {
  COUNTED(cuMemPoolSetAttribute);
  return acts(Op::pool_attribute_set_ignored) ? skipped(entry) : real(pool, attribute, value);
}

template <int V>
CUresult CUDAAPI w_cuMemPoolTrimTo(CUmemoryPool pool, size_t keep) {
  COUNTED(cuMemPoolTrimTo);
  return acts(Op::pool_trim_ignored) ? skipped(entry) : real(pool, keep);
}

// pointer-memory-type-swapped: device memory reported as host memory and host memory as device memory (array and
// unified memory stay); whether it swapped the answer `data` holds.
bool swap_memory_type(void* data) {
  auto* type = static_cast<unsigned int*>(data);
  if (*type != CU_MEMORYTYPE_DEVICE && *type != CU_MEMORYTYPE_HOST) return false;
  if (!acts(Op::pointer_memory_type_swapped)) return false;
  *type = *type == CU_MEMORYTYPE_DEVICE ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
  return true;
}

template <int V>
CUresult CUDAAPI w_cuPointerGetAttribute(void* data, CUpointer_attribute attribute, CUdeviceptr pointer) {
  COUNTED(cuPointerGetAttribute);
  CUresult result = real(data, attribute, pointer);
  if (result == CUDA_SUCCESS && data && attribute == CU_POINTER_ATTRIBUTE_MEMORY_TYPE && swap_memory_type(data)) {
    changed(entry);
  }
  return result;
}

template <int V>
CUresult CUDAAPI w_cuPointerGetAttributes(unsigned int count, CUpointer_attribute* attributes, void** data,
                                          CUdeviceptr pointer) {
  COUNTED(cuPointerGetAttributes);
  CUresult result = real(count, attributes, data, pointer);
  bool swapped = false;
  for (unsigned int i = 0; result == CUDA_SUCCESS && attributes && data && i < count; ++i) {
    if (attributes[i] == CU_POINTER_ATTRIBUTE_MEMORY_TYPE && data[i] && swap_memory_type(data[i])) swapped = true;
  }
  if (swapped) changed(entry);
  return result;
}

template <int V>
CUresult CUDAAPI w_cuStreamAttachMemAsync(CUstream stream, CUdeviceptr pointer, size_t bytes, unsigned int flags) {
  COUNTED(cuStreamAttachMemAsync);
  return acts(Op::managed_attach_host_ignored) ? skipped(entry) : real(stream, pointer, bytes, flags);
}

template <int V>
CUresult CUDAAPI w_cuMemAdvise(CUdeviceptr pointer, size_t bytes, CUmem_advise advice, CUmemLocation location) {
  COUNTED(cuMemAdvise);
  return acts(Op::mem_advise_ignored) ? skipped(entry) : real(pointer, bytes, advice, location);
}

template <int V>
CUresult CUDAAPI w_cuMemPrefetchAsync(CUdeviceptr pointer, size_t bytes, CUmemLocation location, unsigned int flags,
                                      CUstream stream) {
  COUNTED(cuMemPrefetchAsync);
  return acts(Op::mem_prefetch_ignored) ? skipped(entry) : real(pointer, bytes, location, flags, stream);
}

// mem-range-attribute-stale: each range attribute keeps the answer of its first query, whatever range is asked.
template <int V>
CUresult CUDAAPI w_cuMemRangeGetAttribute(void* data, size_t bytes, CUmem_range_attribute attribute,
                                          CUdeviceptr pointer, size_t count) {
  COUNTED(cuMemRangeGetAttribute);
  CUresult result = real(data, bytes, attribute, pointer, count);
  bool counted = is(Op::mem_range_attribute_stale) || is(Op::census);
  if (result != CUDA_SUCCESS || !data || !counted) return result;
  static std::mutex mutex;
  static std::map<std::pair<int, size_t>, std::string> first;
  std::lock_guard<std::mutex> lock(mutex);
  auto seen = first.emplace(std::make_pair(static_cast<int>(attribute), bytes),
                            std::string(static_cast<const char*>(data), bytes));
  // Else the first query, or the same answer.
  if (std::memcmp(data, seen.first->second.data(), bytes) != 0 && acts(Op::mem_range_attribute_stale)) {
    changed(entry);
    std::memcpy(data, seen.first->second.data(), bytes);
  }
  return result;
}

template <int V>
CUresult CUDAAPI w_cuMemSetAccess(CUdeviceptr pointer, size_t bytes, const CUmemAccessDesc* descriptions,
                                  size_t count) {
  COUNTED(cuMemSetAccess);
  return acts(Op::vmm_set_access_ignored) ? skipped(entry) : real(pointer, bytes, descriptions, count);
}

template <int V>
CUresult CUDAAPI w_cuMemGetAllocationGranularity(size_t* granularity, const CUmemAllocationProp* properties,
                                                 CUmemAllocationGranularity_flags option) {
  COUNTED(cuMemGetAllocationGranularity);
  CUresult result = real(granularity, properties, option);
  if (result == CUDA_SUCCESS && granularity && *granularity > 1) {
    *granularity = instead(Op::vmm_granularity_halved, entry, *granularity, *granularity / 2);
  }
  return result;
}

// --- the context, launches, the environment ------------------------------------------------------------------

template <int V>
CUresult CUDAAPI w_cuCtxSetLimit(CUlimit limit, size_t value) {
  COUNTED(cuCtxSetLimit);
  return acts(Op::ctx_set_limit_ignored) ? skipped(entry) : real(limit, value);
}

// launch-error-swallowed: only a launch the driver rejects changes (its error becomes success).
CUresult launched(Entry entry, CUresult result) {
  return result != CUDA_SUCCESS && acts(Op::launch_error_swallowed) ? instead(entry, result, CUDA_SUCCESS) : result;
}

template <int V>
CUresult CUDAAPI w_cuLaunchKernel(CUfunction function, unsigned int gx, unsigned int gy, unsigned int gz,
                                  unsigned int bx, unsigned int by, unsigned int bz, unsigned int shared,
                                  CUstream stream, void** parameters, void** extra) {
  COUNTED(cuLaunchKernel);
  return launched(entry, real(function, gx, gy, gz, bx, by, bz, shared, stream, parameters, extra));
}

template <int V>
CUresult CUDAAPI w_cuLaunchKernelEx(const CUlaunchConfig* launch, CUfunction function, void** parameters,
                                    void** extra) {
  COUNTED(cuLaunchKernelEx);
  if (launch && launch->numAttrs && acts(Op::launch_attributes_dropped)) {  // a launch without attributes: unchanged
    changed(entry);
    CUlaunchConfig without = *launch;
    without.attrs = nullptr;
    without.numAttrs = 0;
    return real(&without, function, parameters, extra);
  }
  return launched(entry, real(launch, function, parameters, extra));
}

template <int V>
CUresult CUDAAPI w_cuLaunchCooperativeKernel(CUfunction function, unsigned int gx, unsigned int gy, unsigned int gz,
                                             unsigned int bx, unsigned int by, unsigned int bz, unsigned int shared,
                                             CUstream stream, void** parameters) {
  COUNTED(cuLaunchCooperativeKernel);
  return launched(entry, real(function, gx, gy, gz, bx, by, bz, shared, stream, parameters));
}

template <int V>
CUresult CUDAAPI w_cuFuncSetAttribute(CUfunction function, CUfunction_attribute attribute, int value) {
  COUNTED(cuFuncSetAttribute);
  return acts(Op::func_set_attribute_ignored) ? skipped(entry) : real(function, attribute, value);
}

template <int V>
CUresult CUDAAPI w_cuKernelSetAttribute(CUfunction_attribute attribute, int value, CUkernel kernel, CUdevice device) {
  COUNTED(cuKernelSetAttribute);
  return acts(Op::func_set_attribute_ignored) ? skipped(entry) : real(attribute, value, kernel, device);
}

// driver-version-lowered: the previous minor version (13000 -> 12090, 12080 -> 12070).
template <int V>
CUresult CUDAAPI w_cuDriverGetVersion(int* version) {
  COUNTED(cuDriverGetVersion);
  CUresult result = real(version);
  if (result == CUDA_SUCCESS && version && *version >= 1000) {
    int lowered = *version % 1000 == 0 ? *version - 1000 + 90 : *version - 10;
    *version = instead(Op::driver_version_lowered, entry, *version, lowered);
  }
  return result;
}

template <int V>
CUresult CUDAAPI w_cuTexObjectCreate(CUtexObject* texture, const CUDA_RESOURCE_DESC* resource,
                                     const CUDA_TEXTURE_DESC* description, const CUDA_RESOURCE_VIEW_DESC* view) {
  COUNTED(cuTexObjectCreate);
  if (!description) return real(texture, resource, description, view);
  CUDA_TEXTURE_DESC mutated = *description;
  if (mutated.filterMode != CU_TR_FILTER_MODE_POINT && acts(Op::texture_filter_mode_point)) {
    mutated.filterMode = CU_TR_FILTER_MODE_POINT;
  }
  bool clamped = true;
  for (CUaddress_mode mode : mutated.addressMode) clamped = clamped && mode == CU_TR_ADDRESS_MODE_CLAMP;
  if (!clamped && acts(Op::texture_address_mode_clamp)) {
    for (CUaddress_mode& mode : mutated.addressMode) mode = CU_TR_ADDRESS_MODE_CLAMP;
  }
  if ((mutated.flags & CU_TRSF_NORMALIZED_COORDINATES) && acts(Op::texture_normalized_coords_ignored)) {
    mutated.flags &= ~CU_TRSF_NORMALIZED_COORDINATES;
  }
  if (acts(Op::texture_read_mode_flipped)) mutated.flags ^= CU_TRSF_READ_AS_INTEGER;
  // A texture already point-filtered, clamped or unnormalized is created as the program asked: unchanged.
  if (mutated.filterMode != description->filterMode || mutated.flags != description->flags ||
      std::memcmp(mutated.addressMode, description->addressMode, sizeof mutated.addressMode) != 0) {
    changed(entry);
  }
  return real(texture, resource, &mutated, view);
}

#undef COUNTED

// --- handing the wrappers out ------------------------------------------------------------------------------------

void* wrapper_of(int entry, int variant) {
  switch (entry) {
#define CUCONFORM_WRAPPER_CASE(name)                              \
  case E_##name:                                                  \
    return variant == 2   ? reinterpret_cast<void*>(&w_##name<2>) \
           : variant == 1 ? reinterpret_cast<void*>(&w_##name<1>) \
                          : reinterpret_cast<void*>(&w_##name<0>);
    CUCONFORM_ENTRIES(CUCONFORM_WRAPPER_CASE)
#undef CUCONFORM_WRAPPER_CASE
    default: return nullptr;
  }
}

// The wrapper of a wrapped entry (the real function kept for it), else the real function itself.
void* substitute(int entry, int variant, void* real) {
  if (entry < 0 || !real || !config().wraps[entry]) return real;
  g_real[entry][variant].store(real);
  return wrapper_of(entry, variant);
}

int entry_by_base_name(const char* symbol) {
  for (int entry = 0; entry < kEntryCount; ++entry) {
    if (std::strcmp(kEntryNames[entry].base, symbol) == 0) return entry;
  }
  return -1;
}

int variant_of(cuuint64_t flags) {
  if (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) return 2;
  return flags & CU_GET_PROC_ADDRESS_LEGACY_STREAM ? 1 : 0;
}

CUresult CUDAAPI get_proc_address_v2(const char* symbol, void** function, int version, cuuint64_t flags,
                                     CUdriverProcAddressQueryResult* status);
CUresult CUDAAPI get_proc_address_v1(const char* symbol, void** function, int version, cuuint64_t flags);

// The function the driver gives for `symbol` (with `flags`) to a query at this toolkit's version: the one whose
// signature the wrappers carry.
void* at_this_version(const char* symbol, cuuint64_t flags) {
  void* found = nullptr;
  if (auto v2 = reinterpret_cast<GetProcV2>(g_get_proc_v2.load())) {
    CUdriverProcAddressQueryResult status;
    v2(symbol, &found, CUDA_VERSION, flags, &status);
  } else if (auto v1 = reinterpret_cast<GetProcV1>(g_get_proc_v1.load())) {
    v1(symbol, &found, CUDA_VERSION, flags);
  }
  return found;
}

// What cuGetProcAddress answers: the wrappers carry this toolkit's signatures, so a query is answered with one when
// it asks for this CUDA version or a later one, or when the driver's answer is the very function a query at this
// version gets (the runtime linked into the suite asks for most entry points at the version it first used them,
// cuStreamWaitEvent at 2000 say, and gets today's function for every one whose signature never changed).
void answered(const char* symbol, void** function, int version, cuuint64_t flags) {
  if (!symbol || !function || !*function) return;
  if (std::strcmp(symbol, "cuGetProcAddress") == 0) {  // asked of the driver itself: ours again
    bool v2 = version >= 12000;
    (v2 ? g_get_proc_v2 : g_get_proc_v1).store(*function);
    *function = v2 ? reinterpret_cast<void*>(&get_proc_address_v2) : reinterpret_cast<void*>(&get_proc_address_v1);
    return;
  }
  int entry = entry_by_base_name(symbol);
  if (entry < 0) return;
  if (version < CUDA_VERSION && at_this_version(symbol, flags) != *function) return;
  *function = substitute(entry, variant_of(flags), *function);
}

CUresult CUDAAPI get_proc_address_v2(const char* symbol, void** function, int version, cuuint64_t flags,
                                     CUdriverProcAddressQueryResult* status) {
  auto real = reinterpret_cast<GetProcV2>(g_get_proc_v2.load());
  if (!real) return CUDA_ERROR_NOT_INITIALIZED;
  CUresult result = real(symbol, function, version, flags, status);
  if (result == CUDA_SUCCESS) answered(symbol, function, version, flags);
  return result;
}

CUresult CUDAAPI get_proc_address_v1(const char* symbol, void** function, int version, cuuint64_t flags) {
  auto real = reinterpret_cast<GetProcV1>(g_get_proc_v1.load());
  if (!real) return CUDA_ERROR_NOT_INITIALIZED;
  CUresult result = real(symbol, function, version, flags);
  if (result == CUDA_SUCCESS) answered(symbol, function, version, flags);
  return result;
}

using Dlsym = void* (*)(void*, const char*);

Dlsym real_dlsym() {
  static const Dlsym found = [] {
    for (const char* version : {"GLIBC_2.34", "GLIBC_2.2.5", "GLIBC_2.17", "GLIBC_2.0"}) {
      if (void* function = dlvsym(RTLD_NEXT, "dlsym", version)) return reinterpret_cast<Dlsym>(function);
    }
    return static_cast<Dlsym>(nullptr);
  }();
  return found;
}

bool ends_with_variant(const char* name, const char* versioned, const char* suffix) {
  size_t length = std::strlen(versioned);
  return std::strncmp(name, versioned, length) == 0 && std::strcmp(name + length, suffix) == 0;
}

}  // namespace

// The runtime's dlsym on libcuda.so.1: cuGetProcAddress becomes this library's; an entry point asked by the name
// cuda.h gives it (cuMemAlloc_v2, cuMemcpyHtoD_v2_ptds) becomes its wrapper when the operator wraps it.
extern "C" void* dlsym(void* __restrict handle, const char* __restrict name) noexcept {
  Dlsym real = real_dlsym();
  if (!real) return nullptr;
  void* found = real(handle, name);
  if (!found || std::strncmp(name, "cu", 2) != 0) return found;
  if (std::strcmp(name, "cuGetProcAddress_v2") == 0 || std::strcmp(name, "cuGetProcAddress_v2_ptsz") == 0) {
    g_get_proc_v2.store(found);
    return reinterpret_cast<void*>(&get_proc_address_v2);
  }
  if (std::strcmp(name, "cuGetProcAddress") == 0) {
    g_get_proc_v1.store(found);
    return reinterpret_cast<void*>(&get_proc_address_v1);
  }
  for (int entry = 0; entry < kEntryCount; ++entry) {
    const char* versioned = kEntryNames[entry].versioned;
    if (std::strcmp(name, versioned) == 0) return substitute(entry, 1, found);
    if (ends_with_variant(name, versioned, "_ptds") || ends_with_variant(name, versioned, "_ptsz")) {
      return substitute(entry, 2, found);
    }
  }
  return found;
}
