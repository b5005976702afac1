#include "runner.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>

#include "plan.h"

namespace litmus {
namespace {

constexpr uint32_t kHelperThreads = 256;

// ---- Kernels: reset before a test launch, classify after it ------------------------------------------------------

struct Initial {
  int32_t values[kMaxLocations];
};

// Every location slot of the coming iteration gets its location's initial value.
__global__ void reset_locations(int32_t* memory, uint32_t stride, Geometry g, Iteration it, Initial initial) {
  const uint32_t slots = g.instances * g.locations;
  for (uint32_t s = blockIdx.x * blockDim.x + threadIdx.x; s < slots; s += gridDim.x * blockDim.x) {
    memory[static_cast<size_t>(it.location_perm(s)) * stride] = select(initial.values, s / g.instances);  // s = v*I+i
  }
}

__global__ void fill(int32_t* words, size_t count, int32_t value) {
  for (size_t w = blockIdx.x * size_t(blockDim.x) + threadIdx.x; w < count; w += size_t(gridDim.x) * blockDim.x) {
    words[w] = value;
  }
}

struct ClassifyArgs {
  Outcomes outcomes;
  Geometry geometry;
  int32_t* memory;
  uint32_t stride;
  int32_t* results;
  uint32_t* barriers;
  unsigned long long* histogram;
  bool reset_locations;  // every location starts with the same value: reset them here, no reset launch needed
};

// Files every instance of the iteration into the histogram, then clears its results and its barrier (and, when
// every location has the same initial value, its locations: the next permutation reuses the same slots).
__global__ void classify(ClassifyArgs c, Iteration it) {
  __shared__ unsigned long long bins[kMaxBins];
  for (uint32_t b = threadIdx.x; b < kMaxBins; b += blockDim.x) bins[b] = 0;
  __syncthreads();
  const Outcomes& o = c.outcomes;
  const uint32_t words = o.result_words();
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < c.geometry.instances; i += gridDim.x * blockDim.x) {
    int32_t* const r = c.results + static_cast<size_t>(i) * words;
    bool complete = true;
    for (uint32_t role = 0; role < o.roles; ++role) complete = complete && r[o.registers + role] == 1;
    int32_t value[kMaxObservables] = {};
    for (uint32_t k = 0; k < o.observables; ++k) {
      const Observable& ob = o.observed[k];
      value[k] = ob.location >= 0
                     ? c.memory[static_cast<size_t>(location_slot(c.geometry, it, i, ob.location)) * c.stride]
                     : r[ob.index];
    }
    atomicAdd(&bins[o.classify(value, complete)], 1ULL);
    if (c.reset_locations) {
      for (uint32_t v = 0; v < o.locations; ++v) {
        c.memory[static_cast<size_t>(location_slot(c.geometry, it, i, v)) * c.stride] = o.initial[0];
      }
    }
    for (uint32_t w = 0; w < words; ++w) r[w] = kUnwritten;
    c.barriers[i] = 0;
  }
  __syncthreads();
  for (uint32_t b = threadIdx.x; b < o.bins(); b += blockDim.x) {
    if (bins[b] != 0) atomicAdd(&c.histogram[b], bins[b]);
  }
}

// ---- Memory that frees itself ------------------------------------------------------------------------------------

struct DeviceMemory {
  void* pointer = nullptr;
  bool host = false;  // page-locked host memory (cudaHostAlloc)
  DeviceMemory() = default;
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
  ~DeviceMemory() {
    if (!pointer) return;
    if (host) {
      cudaFreeHost(pointer);
    } else {
      cudaFree(pointer);
    }
  }
  cudaError_t allocate(size_t bytes) { return cudaMalloc(&pointer, bytes); }
  cudaError_t allocate_host(size_t bytes) {
    host = true;
    return cudaHostAlloc(&pointer, bytes, cudaHostAllocMapped | cudaHostAllocPortable);
  }
  template <class T>
  T* as() const {
    return static_cast<T*>(pointer);
  }
};

std::string what(const char* step, cudaError_t error) {
  return std::string(step) + ": " + cudaGetErrorName(error) + ": " + cudaGetErrorString(error);
}

#define LITMUS_TRY(step, expression)                                                                              \
  do {                                                                                                            \
    if (cudaError_t litmus_error_ = (expression); litmus_error_ != cudaSuccess) return what(step, litmus_error_); \
  } while (0)

uint32_t multiprocessors(int device) {
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  return static_cast<uint32_t>(std::max(sms, 1));
}

uint64_t iteration_seed(uint64_t seed, uint64_t iteration) {
  Random random(seed ^ (iteration * 0xd1b54a32d192ed03ULL));
  return random.next();
}

// ---- One case's buffers and launches -----------------------------------------------------------------------------

class CaseRun {
 public:
  ~CaseRun() {
    for (auto& e : start_) cudaEventDestroy(e);
    for (auto& e : stop_) cudaEventDestroy(e);
    for (int g = 0; g < groups_; ++g) {
      if (ready_[g]) cudaEventDestroy(ready_[g]);
      if (done_[g]) cudaEventDestroy(done_[g]);
    }
  }

  // The launch shape of this case for `blocks` blocks per GPU (0: only the slice size and shared memory matter).
  std::string plan(const Case& c, const Config& config, uint32_t blocks) {
    case_ = &c;
    GeometryRequest request;
    request.placement = c.placement;
    request.roles = c.shape->outcomes.roles;
    request.locations = c.shape->outcomes.locations;
    request.block_size = config.block_size;
    request.cluster_size = config.cluster_size;
    request.stress_percent = config.stress_percent;
    // Without a block count yet, any count that every placement can lay out: only the slice size matters then.
    request.blocks = blocks != 0 ? blocks : 16 * config.cluster_size;
    if (std::string error = make_geometry(request, geometry_); !error.empty()) return c.name + ": " + error;
    host_thread_ = c.placement == Placement::HostThread;
    spec_.blocks = geometry_.blocks;
    spec_.block_size = geometry_.block_size;
    spec_.cluster = c.placement == Placement::Cluster ? config.cluster_size : 1;
    // Shared memory: the location slots (Shared, SharedBanks), then the bank region of the in-block stress.
    const uint32_t slot_words = in_shared_memory(c.placement) ? geometry_.locations * geometry_.slice_size : 0;
    const uint32_t bank_words = by_sub_partition(c.placement) ? kBankStressWords : 0;
    spec_.shared_bytes = static_cast<uint32_t>((slot_words + bank_words) * sizeof(int32_t));
    return "";
  }

  // How many blocks of this case fit at once on every GPU it uses.
  std::string resident(uint32_t& blocks) {
    blocks = ~0u;
    for (int g = 0; g < group_count(); ++g) {
      LITMUS_TRY("cudaSetDevice", cudaSetDevice(g));
      uint32_t here = 0;
      LITMUS_TRY("occupancy", case_->kernels.resident_blocks(spec_, &here));
      blocks = std::min(blocks, here);
    }
    cudaSetDevice(0);
    return "";
  }

  // `streams`: one per GPU, shared by the case and its sibling so that their launches never overlap.
  std::string prepare(const Config& config, uint32_t blocks, const cudaStream_t* streams) {
    if (std::string error = plan(*case_, config, blocks); !error.empty()) return error;
    config_ = config;
    stream_[0] = streams[0];
    stream_[1] = streams[1];
    if (host_thread_) return prepare_host_thread();
    helper_blocks_ = multiprocessors(0) * 4;
    groups_ = group_count();
    const Outcomes& o = case_->shape->outcomes;
    const size_t slots = size_t(geometry_.instances) * geometry_.locations;
    const size_t memory_bytes = (slots - 1) * config.stride_words * sizeof(int32_t) + sizeof(int32_t);
    const size_t result_words = size_t(geometry_.instances) * o.result_words();

    LITMUS_TRY("cudaSetDevice", cudaSetDevice(0));
    if (case_->placement == Placement::HostMemory) {
      LITMUS_TRY("cudaHostAlloc (locations)", memory_.allocate_host(memory_bytes));
      void* mapped = nullptr;
      LITMUS_TRY("cudaHostGetDevicePointer", cudaHostGetDevicePointer(&mapped, memory_.pointer, 0));
      device_memory_ = static_cast<int32_t*>(mapped);
    } else {
      LITMUS_TRY("cudaMalloc (locations)", memory_.allocate(memory_bytes));
      device_memory_ = memory_.as<int32_t>();
    }
    LITMUS_TRY("cudaMalloc (results)", results_.allocate(result_words * sizeof(int32_t)));
    LITMUS_TRY("cudaMalloc (barriers)", barriers_.allocate(geometry_.instances * sizeof(uint32_t)));
    LITMUS_TRY("cudaMalloc (histogram)", histogram_.allocate(kMaxBins * sizeof(unsigned long long)));
    LITMUS_TRY("cudaMalloc (counters)", counters_.allocate(kCounters * sizeof(unsigned long long)));
    LITMUS_TRY("cudaMemset", cudaMemset(barriers_.pointer, 0, geometry_.instances * sizeof(uint32_t)));
    LITMUS_TRY("cudaMemset", cudaMemset(histogram_.pointer, 0, kMaxBins * sizeof(unsigned long long)));
    LITMUS_TRY("cudaMemset", cudaMemset(counters_.pointer, 0, kCounters * sizeof(unsigned long long)));
    fill<<<helper_blocks_, kHelperThreads>>>(results_.as<int32_t>(), result_words, kUnwritten);
    LITMUS_TRY("fill", cudaGetLastError());

    for (int g = 0; g < groups_; ++g) {
      LITMUS_TRY("cudaSetDevice", cudaSetDevice(g));
      const size_t scratch_bytes = size_t(config.stress_lines) * kLineWords * sizeof(uint32_t);
      LITMUS_TRY("cudaMalloc (scratch)", scratch_[g].allocate(scratch_bytes));
      LITMUS_TRY("cudaMemset", cudaMemset(scratch_[g].pointer, 0, scratch_bytes));
      // The memsets and the fill run on the legacy stream, which the case's non-blocking streams do not wait for.
      LITMUS_TRY("setup", cudaDeviceSynchronize());
      LITMUS_TRY("cudaEventCreate", cudaEventCreateWithFlags(&ready_[g], cudaEventDisableTiming));
      LITMUS_TRY("cudaEventCreate", cudaEventCreateWithFlags(&done_[g], cudaEventDisableTiming));

      TestArgs& a = args_[g];
      a.geometry = geometry_;
      a.memory = device_memory_;
      a.stride = config.stride_words;
      a.results = results_.as<int32_t>();
      a.result_words = o.result_words();
      a.registers = o.registers;
      a.barriers = barriers_.as<uint32_t>();
      a.scratch = scratch_[g].as<uint32_t>();
      a.counters = counters_.as<unsigned long long>();
      a.stress.on = config.stress ? 1 : 0;
      a.stress.iterations = config.stress_iterations;
      a.stress.prestress_on = config.prestress ? 1 : 0;
      a.stress.prestress_iterations = config.prestress_iterations;
      a.stress.lines = config.stress_lines;
      a.stress.target_lines = config.stress_target_lines;
      a.stress.banks_on = config.bank_stress ? 1 : 0;
      a.group = static_cast<uint32_t>(g);
      a.spin_limit = config.spin_limit;
      for (uint32_t v = 0; v < kMaxLocations; ++v) a.initial[v] = o.initial[v];
    }
    LITMUS_TRY("cudaSetDevice", cudaSetDevice(0));
    start_.resize(config.check_every);
    stop_.resize(config.check_every);
    for (uint32_t e = 0; e < config.check_every; ++e) {
      LITMUS_TRY("cudaEventCreate", cudaEventCreate(&start_[e]));
      LITMUS_TRY("cudaEventCreate", cudaEventCreate(&stop_[e]));
    }
    uniform_initial_ = true;
    for (uint32_t v = 1; v < o.locations; ++v) uniform_initial_ = uniform_initial_ && o.initial[v] == o.initial[0];
    if (uniform_initial_ && !in_shared_memory(case_->placement)) {
      // Classification resets the slots from now on; the first iteration needs them set once (any permutation
      // covers every slot).
      reset_locations<<<helper_blocks_, kHelperThreads>>>(device_memory_, config.stride_words, geometry_,
                                                          make_iteration(geometry_, 0, config.stress_lines),
                                                          initial_values());
      LITMUS_TRY("reset_locations", cudaGetLastError());
    }
    LITMUS_TRY("setup", cudaDeviceSynchronize());
    return "";
  }

  // One iteration: reset, the test launch on every GPU of the case, classification; timed with slot's events.
  std::string enqueue(uint64_t seed, uint32_t slot) {
    if (host_thread_) return run_host_thread(seed);
    const Iteration it = make_iteration(geometry_, seed, config_.stress_lines);
    const Outcomes& o = case_->shape->outcomes;
    LITMUS_TRY("cudaSetDevice", cudaSetDevice(0));
    LITMUS_TRY("cudaEventRecord", cudaEventRecord(start_[slot], stream_[0]));
    const bool reset_in_classify = uniform_initial_ && !in_shared_memory(case_->placement);
    if (!in_shared_memory(case_->placement) && !reset_in_classify) {
      reset_locations<<<helper_blocks_, kHelperThreads, 0, stream_[0]>>>(device_memory_, config_.stride_words,
                                                                         geometry_, it, initial_values());
      LITMUS_TRY("reset_locations", cudaGetLastError());
    }
    if (groups_ > 1) {
      LITMUS_TRY("cudaEventRecord", cudaEventRecord(ready_[0], stream_[0]));
      for (int g = 1; g < groups_; ++g) {
        LITMUS_TRY("cudaSetDevice", cudaSetDevice(g));
        LITMUS_TRY("cudaStreamWaitEvent", cudaStreamWaitEvent(stream_[g], ready_[0], 0));
        LITMUS_TRY("test launch", case_->kernels.launch(spec_, args_[g], it, stream_[g]));
        LITMUS_TRY("cudaEventRecord", cudaEventRecord(done_[g], stream_[g]));
      }
      LITMUS_TRY("cudaSetDevice", cudaSetDevice(0));
    }
    LITMUS_TRY("test launch", case_->kernels.launch(spec_, args_[0], it, stream_[0]));
    for (int g = 1; g < groups_; ++g) {
      LITMUS_TRY("cudaStreamWaitEvent", cudaStreamWaitEvent(stream_[0], done_[g], 0));
    }
    ClassifyArgs c{o,
                   geometry_,
                   device_memory_,
                   config_.stride_words,
                   results_.as<int32_t>(),
                   barriers_.as<uint32_t>(),
                   histogram_.as<unsigned long long>(),
                   reset_in_classify};
    classify<<<helper_blocks_, kHelperThreads, 0, stream_[0]>>>(c, it);
    LITMUS_TRY("classify", cudaGetLastError());
    LITMUS_TRY("cudaEventRecord", cudaEventRecord(stop_[slot], stream_[0]));
    ++pending_;
    return "";
  }

  // Waits for the pending iterations and adds their GPU time.
  std::string collect() {
    if (host_thread_) {  // its iterations ran to completion in enqueue
      iterations_ += pending_;
      pending_ = 0;
      return "";
    }
    LITMUS_TRY("cudaSetDevice", cudaSetDevice(0));
    LITMUS_TRY("litmus iterations", cudaStreamSynchronize(stream_[0]));
    for (uint32_t e = 0; e < pending_; ++e) {
      float ms = 0;
      LITMUS_TRY("cudaEventElapsedTime", cudaEventElapsedTime(&ms, start_[e], stop_[e]));
      gpu_ms_ += ms;
    }
    iterations_ += pending_;
    pending_ = 0;
    return "";
  }

  // Forgets what the warm-up saw.
  std::string clear() {
    LITMUS_TRY("warm-up", cudaDeviceSynchronize());
    host_bins_.assign(kMaxBins, 0);
    host_timeouts_ = 0;
    if (!host_thread_) {
      LITMUS_TRY("cudaMemset", cudaMemset(histogram_.pointer, 0, kMaxBins * sizeof(unsigned long long)));
      LITMUS_TRY("cudaMemset", cudaMemset(counters_.pointer, 0, kCounters * sizeof(unsigned long long)));
      LITMUS_TRY("clear", cudaDeviceSynchronize());  // before the non-blocking streams run again
    }
    gpu_ms_ = 0;
    iterations_ = 0;
    pending_ = 0;
    return "";
  }

  std::string tally(Tally& t) {
    const uint32_t bins_used = case_->shape->outcomes.bins();
    t.iterations = iterations_;
    t.gpu_ms = gpu_ms_;
    if (host_thread_) {
      t.bins.assign(host_bins_.begin(), host_bins_.begin() + bins_used);
      t.instances_per_launch = host_view_.instances;
      t.instances = iterations_ * host_view_.instances;
      t.barrier_timeouts = host_timeouts_;
      return "";
    }
    LITMUS_TRY("cudaSetDevice", cudaSetDevice(0));
    std::vector<unsigned long long> bins(kMaxBins), counters(kCounters);
    LITMUS_TRY("cudaMemcpy",
               cudaMemcpy(bins.data(), histogram_.pointer, bins.size() * sizeof(bins[0]), cudaMemcpyDeviceToHost));
    LITMUS_TRY("cudaMemcpy", cudaMemcpy(counters.data(), counters_.pointer, counters.size() * sizeof(counters[0]),
                                        cudaMemcpyDeviceToHost));
    t.bins.assign(bins.begin(), bins.begin() + bins_used);
    t.instances_per_launch = geometry_.instances;
    t.instances = iterations_ * geometry_.instances;
    t.barrier_timeouts = counters[0];
    return "";
  }

  double gpu_ms() const { return gpu_ms_; }
  uint64_t instances() const { return iterations_ * (host_thread_ ? host_view_.instances : geometry_.instances); }
  uint32_t pending() const { return pending_; }
  bool host_thread() const { return host_thread_; }

 private:
  // HostThread placement: everything in page-locked host memory, mapped for the GPU.
  std::string prepare_host_thread() {
    const Outcomes& o = case_->shape->outcomes;
    HostPairArgs& h = host_view_;
    h.pairs = config_.host_threads;
    h.rounds = config_.host_rounds;
    h.instances = h.pairs * h.rounds;
    h.locations = o.locations;
    h.stride = config_.stride_words;
    h.result_words = o.result_words();
    h.registers = o.registers;
    h.spin_limit = config_.spin_limit;
    const size_t slots = size_t(h.instances) * h.locations;
    LITMUS_TRY("cudaSetDevice", cudaSetDevice(0));
    LITMUS_TRY("cudaHostAlloc (locations)", memory_.allocate_host(((slots - 1) * h.stride + 1) * sizeof(int32_t)));
    LITMUS_TRY("cudaHostAlloc (results)",
               results_.allocate_host(size_t(h.instances) * h.result_words * sizeof(int32_t)));
    LITMUS_TRY("cudaHostAlloc (flags)", flags_.allocate_host(2 * size_t(h.instances) * sizeof(uint32_t)));
    LITMUS_TRY("cudaHostAlloc (timeouts)", gpu_timeouts_.allocate_host(h.pairs * sizeof(uint32_t)));
    h.memory = memory_.as<int32_t>();
    h.results = results_.as<int32_t>();
    h.flags = flags_.as<uint32_t>();
    h.gpu_timeouts = gpu_timeouts_.as<uint32_t>();
    device_view_ = h;
    void* mapped = nullptr;
    LITMUS_TRY("cudaHostGetDevicePointer", cudaHostGetDevicePointer(&mapped, h.memory, 0));
    device_view_.memory = static_cast<int32_t*>(mapped);
    LITMUS_TRY("cudaHostGetDevicePointer", cudaHostGetDevicePointer(&mapped, h.results, 0));
    device_view_.results = static_cast<int32_t*>(mapped);
    LITMUS_TRY("cudaHostGetDevicePointer", cudaHostGetDevicePointer(&mapped, h.flags, 0));
    device_view_.flags = static_cast<uint32_t*>(mapped);
    LITMUS_TRY("cudaHostGetDevicePointer", cudaHostGetDevicePointer(&mapped, h.gpu_timeouts, 0));
    device_view_.gpu_timeouts = static_cast<uint32_t*>(mapped);
    host_bins_.assign(kMaxBins, 0);
    return "";
  }

  // One HostThread iteration: reset on the host, run the pairs, classify on the host.
  std::string run_host_thread(uint64_t seed) {
    HostPairArgs& h = host_view_;
    reset_pairs(case_->shape->outcomes, h, seed);
    device_view_.location_perm = h.location_perm;

    const auto start = std::chrono::steady_clock::now();
    LITMUS_TRY("GPU and host threads", case_->kernels.run_host_pairs(device_view_, h, stream_[0], &host_timeouts_));
    gpu_ms_ += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

    for (uint32_t p = 0; p < h.pairs; ++p) host_timeouts_ += h.gpu_timeouts[p];
    classify_pairs(case_->shape->outcomes, h, host_bins_);
    ++pending_;
    return "";
  }

  Initial initial_values() const {
    Initial initial{};
    for (uint32_t v = 0; v < kMaxLocations; ++v) initial.values[v] = case_->shape->outcomes.initial[v];
    return initial;
  }

  bool uniform_initial_ = false;
  bool host_thread_ = false;
  HostPairArgs host_view_, device_view_;
  DeviceMemory flags_, gpu_timeouts_;
  std::vector<uint64_t> host_bins_;
  uint64_t host_timeouts_ = 0;

  int group_count() const { return case_->placement == Placement::Devices ? 2 : 1; }

  const Case* case_ = nullptr;
  Config config_;
  Geometry geometry_;
  LaunchSpec spec_;
  int groups_ = 1;
  uint32_t helper_blocks_ = 1;  // grid of the reset and classification kernels
  TestArgs args_[2];
  DeviceMemory memory_, results_, barriers_, histogram_, counters_, scratch_[2];
  int32_t* device_memory_ = nullptr;
  cudaStream_t stream_[2] = {};
  cudaEvent_t ready_[2] = {}, done_[2] = {};
  std::vector<cudaEvent_t> start_, stop_;
  uint32_t pending_ = 0;
  uint64_t iterations_ = 0;
  double gpu_ms_ = 0;
};

// Whether the case can run on this machine; "" or the reason it cannot.
std::string unavailable(const Case& c) {
  if (c.placement != Placement::Devices) return "";
  int count = 0;
  cudaGetDeviceCount(&count);
  if (count < 2) return "needs 2 GPUs; " + std::to_string(count) + " visible";
  int forward = 0, backward = 0;
  cudaDeviceCanAccessPeer(&forward, 0, 1);
  cudaDeviceCanAccessPeer(&backward, 1, 0);
  if (!forward || !backward) return "GPUs 0 and 1 cannot access each other's memory (no peer access)";
  int atomics = 0;
  cudaDeviceGetP2PAttribute(&atomics, cudaDevP2PAttrNativeAtomicSupported, 1, 0);
  if (!atomics) return "GPU 1 has no native atomics on GPU 0's memory (the spin barrier needs them)";
  return "";
}

// One stream per GPU for a case and its sibling: their launches run one after the other, never side by side (the
// spin barrier needs each launch's blocks to be resident together).
struct Streams {
  cudaStream_t stream[2] = {};
  int count = 0;
  ~Streams() {
    for (int g = 0; g < count; ++g) {
      cudaSetDevice(g);
      cudaStreamDestroy(stream[g]);
    }
    cudaSetDevice(0);
  }
  std::string create(int gpus) {
    for (int g = 0; g < gpus; ++g) {
      LITMUS_TRY("cudaSetDevice", cudaSetDevice(g));
      LITMUS_TRY("cudaStreamCreate", cudaStreamCreateWithFlags(&stream[g], cudaStreamNonBlocking));
      count = g + 1;
    }
    LITMUS_TRY("cudaSetDevice", cudaSetDevice(0));
    return "";
  }
};

std::string enable_peers() {
  for (int g = 0; g < 2; ++g) {
    LITMUS_TRY("cudaSetDevice", cudaSetDevice(g));
    cudaError_t error = cudaDeviceEnablePeerAccess(1 - g, 0);
    if (error == cudaErrorPeerAccessAlreadyEnabled) {
      (void)cudaGetLastError();
    } else if (error != cudaSuccess) {
      return what("cudaDeviceEnablePeerAccess", error);
    }
  }
  LITMUS_TRY("cudaSetDevice", cudaSetDevice(0));
  return "";
}

std::string run(const Case& c, const Case* sibling, const Config& config, RunResult& out) {
  for (const Case* k : {&c, sibling}) {
    if (!k) continue;
    if (std::string why = unavailable(*k); !why.empty()) {
      out.skip = why;
      return "";
    }
  }
  if (c.placement == Placement::Devices || (sibling && sibling->placement == Placement::Devices)) {
    if (std::string error = enable_peers(); !error.empty()) return error;
  }

  // Both cases run with the same number of blocks: as many as fit at once (the spin barrier needs every block
  // resident), capped by blocks_per_sm. Declared before the runs, the streams outlive them.
  Streams streams;
  if (std::string error = streams.create(c.placement == Placement::Devices ? 2 : 1); !error.empty()) return error;
  CaseRun test, twin;
  CaseRun* runs[2] = {&test, sibling ? &twin : nullptr};
  const Case* cases[2] = {&c, sibling};
  uint32_t blocks = ~0u;
  for (int k = 0; k < 2; ++k) {
    if (!runs[k]) continue;
    if (std::string error = runs[k]->plan(*cases[k], config, 0); !error.empty()) return error;
    if (runs[k]->host_thread()) continue;  // one GPU thread per pair: nothing to fit
    uint32_t resident = 0;
    if (std::string error = runs[k]->resident(resident); !error.empty()) return error;
    blocks = std::min(blocks, resident);
  }
  if (c.placement == Placement::HostThread) {
    blocks = 0;
  } else {
    // Every access of a HostMemory case crosses the bus to host memory: one block per SM unless told otherwise.
    const uint32_t per_sm = config.blocks_per_sm != 0              ? config.blocks_per_sm
                            : c.placement == Placement::HostMemory ? 1
                                                                   : 0;
    if (per_sm != 0) blocks = std::min(blocks, per_sm * multiprocessors(0));
    if (c.placement == Placement::Cluster) blocks -= blocks % config.cluster_size;
    if (blocks == 0 || blocks == ~0u) return c.name + ": no block of this kernel fits on the device";
  }
  out.blocks = blocks;
  for (int k = 0; k < 2; ++k) {
    if (!runs[k]) continue;
    if (std::string error = runs[k]->prepare(config, blocks, streams.stream); !error.empty()) return error;
  }

  // Warm-up (module loading, first-touch of the buffers): one iteration each, forgotten.
  for (int k = 0; k < 2; ++k) {
    if (!runs[k]) continue;
    if (std::string error = runs[k]->enqueue(iteration_seed(config.seed, ~0ULL), 0); !error.empty()) return error;
    if (std::string error = runs[k]->clear(); !error.empty()) return error;
  }

  for (uint64_t i = 0;; ++i) {
    const uint64_t seed = iteration_seed(config.seed, i);
    for (int k = 0; k < 2; ++k) {
      if (!runs[k]) continue;
      if (std::string error = runs[k]->enqueue(seed, runs[k]->pending()); !error.empty()) return error;
    }
    const bool last = i + 1 >= config.max_iterations;
    if (test.pending() == config.check_every || last) {
      for (int k = 0; k < 2; ++k) {
        if (!runs[k]) continue;
        if (std::string error = runs[k]->collect(); !error.empty()) return error;
      }
      // An instance target (key `instances`) replaces the time budget.
      const bool enough =
          config.instances != 0 ? test.instances() >= config.instances : test.gpu_ms() >= config.budget_ms;
      if (last || enough) break;
    }
  }
  if (std::string error = test.tally(out.test); !error.empty()) return error;
  if (sibling) {
    if (std::string error = twin.tally(out.sibling); !error.empty()) return error;
  }
  return "";
}

}  // namespace

void reset_pairs(const Outcomes& o, HostPairArgs& h, uint64_t seed) {
  Random random(seed);
  h.location_perm = random_affine(random, h.locations * h.instances);
  for (uint32_t s = 0; s < h.locations * h.instances; ++s) {
    h.memory[size_t(h.location_perm(s)) * h.stride] = o.initial[s / h.instances];
  }
  std::fill(h.results, h.results + size_t(h.instances) * h.result_words, kUnwritten);
  std::fill(h.flags, h.flags + 2 * size_t(h.instances), 0u);
  std::fill(h.gpu_timeouts, h.gpu_timeouts + h.pairs, 0u);
}

void classify_pairs(const Outcomes& o, const HostPairArgs& h, std::vector<uint64_t>& bins) {
  for (uint32_t i = 0; i < h.instances; ++i) {
    const int32_t* r = h.results + size_t(i) * h.result_words;
    bool complete = true;
    for (uint32_t role = 0; role < o.roles; ++role) complete = complete && r[o.registers + role] == 1;
    int32_t value[kMaxObservables] = {};
    for (uint32_t k = 0; k < o.observables; ++k) {
      const Observable& ob = o.observed[k];
      value[k] =
          ob.location >= 0 ? h.memory[size_t(h.location_perm(ob.location * h.instances + i)) * h.stride] : r[ob.index];
    }
    ++bins[o.classify(value, complete)];
  }
}

RunResult run_case(const Case& c, const Case* sibling, const Config& config) {
  RunResult out;
  out.error = run(c, sibling, config, out);
  cudaSetDevice(0);
  return out;
}

}  // namespace litmus
