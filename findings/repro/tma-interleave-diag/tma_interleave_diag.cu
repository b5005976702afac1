// Diagnostic (not part of the suite, not in CMake): what a tiled bulk tensor load with an interleaved tensor map, or
// with a dimension-0 corner that is not a multiple of 16 bytes, delivers on this GPU. For every variant it prints the
// encode result, whether an mbarrier expecting the suite model's byte count completes, how many bytes the copy
// actually counted on the barrier (complete_tx), which shared bytes it wrote and whether they equal either model:
//   H1 (the suite's model, suites/async/tensor_map_shapes.cpp): dimension 0 counts elements of the data type;
//   H2: under interleave, each dimension-0 element is a whole 16- or 32-byte chunk (globalDim[0] and boxDim[0] count
//       chunks, dimension-0 element i starts at byte 16i or 32i).
// Every variant runs in a child process, so a fault ends only that variant.
// Build and run: findings/repro/tma-interleave-diag/README.md.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cuda/ptx>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

namespace ptx = cuda::ptx;

// ---------------------------------------------------------------------------------------------------------------
// Variants

struct Variant {
  const char* name;
  CUtensorMapDataType type;
  unsigned element_bytes;
  unsigned rank;
  std::uint64_t dims[5];
  std::uint64_t strides[4];
  std::uint32_t box[5];
  std::uint32_t element_strides[5];
  CUtensorMapInterleave interleave;
  CUtensorMapSwizzle swizzle;
  int corner[5];
  unsigned base_shift;  // bytes added to the (1024-aligned) tensor base: probes the documented address alignment
};

constexpr CUtensorMapDataType kU16 = CU_TENSOR_MAP_DATA_TYPE_UINT16;
constexpr CUtensorMapDataType kU32 = CU_TENSOR_MAP_DATA_TYPE_UINT32;
constexpr CUtensorMapInterleave kNone = CU_TENSOR_MAP_INTERLEAVE_NONE;
constexpr CUtensorMapInterleave k16B = CU_TENSOR_MAP_INTERLEAVE_16B;
constexpr CUtensorMapInterleave k32B = CU_TENSOR_MAP_INTERLEAVE_32B;
constexpr CUtensorMapSwizzle kNoSwizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
constexpr CUtensorMapSwizzle kSwizzle32 = CU_TENSOR_MAP_SWIZZLE_32B;

// clang-format off
const Variant kVariants[] = {
  // The suite's two interleaved shapes (tensor_map_ranks.cu, first placement), and a placement inside.
  {"suite-16B",          kU16, 2, 4, {8, 6, 5, 4},  {16, 96, 480},  {8, 4, 3, 2},  {1, 1, 1, 1}, k16B,  kNoSwizzle, {0, 0, 0, 0}, 0},
  {"suite-16B-at-0311",  kU16, 2, 4, {8, 6, 5, 4},  {16, 96, 480},  {8, 4, 3, 2},  {1, 1, 1, 1}, k16B,  kNoSwizzle, {0, 3, 1, 1}, 0},
  {"suite-32B-sw32",     kU16, 2, 4, {16, 6, 5, 3}, {32, 192, 960}, {16, 4, 3, 2}, {1, 1, 1, 1}, k32B,  kSwizzle32, {0, 0, 0, 0}, 0},
  // Controls: the same maps without interleave (the frame itself must give H1 = H2 = delivered).
  {"ctrl-16B-none",      kU16, 2, 4, {8, 6, 5, 4},  {16, 96, 480},  {8, 4, 3, 2},  {1, 1, 1, 1}, kNone, kNoSwizzle, {0, 0, 0, 0}, 0},
  {"ctrl-32B-none-sw32", kU16, 2, 4, {16, 6, 5, 3}, {32, 192, 960}, {16, 4, 3, 2}, {1, 1, 1, 1}, kNone, kSwizzle32, {0, 0, 0, 0}, 0},
  // Smaller boxes: how the delivered bytes scale with boxDim[0] and the outer box dimensions.
  {"16B-box8x1x1x1",     kU16, 2, 4, {8, 6, 5, 4},  {16, 96, 480},  {8, 1, 1, 1},  {1, 1, 1, 1}, k16B,  kNoSwizzle, {0, 0, 0, 0}, 0},
  {"16B-box8x2x1x1",     kU16, 2, 4, {8, 6, 5, 4},  {16, 96, 480},  {8, 2, 1, 1},  {1, 1, 1, 1}, k16B,  kNoSwizzle, {0, 0, 0, 0}, 0},
  {"16B-box1x1x1x1",     kU16, 2, 4, {8, 6, 5, 4},  {16, 96, 480},  {1, 1, 1, 1},  {1, 1, 1, 1}, k16B,  kNoSwizzle, {0, 0, 0, 0}, 0},
  {"16B-box2x1x1x1",     kU16, 2, 4, {8, 6, 5, 4},  {16, 96, 480},  {2, 1, 1, 1},  {1, 1, 1, 1}, k16B,  kNoSwizzle, {0, 0, 0, 0}, 0},
  {"16B-box4x2x1x1",     kU16, 2, 4, {8, 6, 5, 4},  {16, 96, 480},  {4, 2, 1, 1},  {1, 1, 1, 1}, k16B,  kNoSwizzle, {0, 0, 0, 0}, 0},
  {"32B-box16x1x1x1",    kU16, 2, 4, {16, 6, 5, 3}, {32, 192, 960}, {16, 1, 1, 1}, {1, 1, 1, 1}, k32B,  kSwizzle32, {0, 0, 0, 0}, 0},
  {"32B-box1x1x1x1",     kU16, 2, 4, {16, 6, 5, 3}, {32, 192, 960}, {1, 1, 1, 1},  {1, 1, 1, 1}, k32B,  kSwizzle32, {0, 0, 0, 0}, 0},
  {"32B-box2x8x1x1",     kU16, 2, 4, {16, 6, 5, 3}, {32, 192, 960}, {2, 8, 1, 1},  {1, 1, 1, 1}, k32B,  kSwizzle32, {0, 0, 0, 0}, 0},
  // H2's own reading of NC/8HWC8 (u16, 6 x 5 pixels, 4 chunks): dimension 0 is W, one 16-byte chunk per pixel, so the
  // W stride of the map is the H row (6 chunks = 96 bytes). H2 predicts box bytes = 4 * 3 * 2 * 16 = 384.
  {"H2-16B-W6H5C4",      kU16, 2, 3, {6, 5, 4},     {96, 480},      {4, 3, 2},     {1, 1, 1},    k16B,  kNoSwizzle, {0, 0, 0},    0},
  {"H2-16B-W6H5C4-at1",  kU16, 2, 3, {6, 5, 4},     {96, 480},      {4, 3, 2},     {1, 1, 1},    k16B,  kNoSwizzle, {1, 3, 3},    0},
  {"H2-16B-Wstride2",    kU16, 2, 3, {6, 5, 4},     {96, 480},      {4, 3, 2},     {2, 1, 1},    k16B,  kNoSwizzle, {0, 0, 0},    0},
  {"H2-32B-W6H5C3",      kU16, 2, 3, {6, 5, 3},     {192, 960},     {4, 3, 2},     {1, 1, 1},    k32B,  kSwizzle32, {0, 0, 0},    0},
  {"u32-16B",            kU32, 4, 4, {4, 6, 5, 4},  {16, 96, 480},  {4, 4, 3, 2},  {1, 1, 1, 1}, k16B,  kNoSwizzle, {0, 0, 0, 0}, 0},
  // Documented encode requirement: INTERLEAVE_32B needs a 32-byte aligned globalAddress (16 here: must not encode).
  {"enc-32B-base+16",    kU16, 2, 4, {16, 6, 5, 3}, {32, 192, 960}, {16, 4, 3, 2}, {1, 1, 1, 1}, k32B,  kSwizzle32, {0, 0, 0, 0}, 16},
  // Tiled, no interleave: the suite's Unaligned/Rank3 and Rank4 corners (PTX ISA 5.5.3.1: the bounding box address
  // must be 16-byte aligned), next to aligned corners of the same maps.
  {"corner-r3-aligned4", kU32, 4, 3, {12, 7, 5},    {64, 512},      {8, 4, 3},     {1, 1, 1},    kNone, kNoSwizzle, {4, 3, 2},    0},
  {"corner-r3-10",       kU32, 4, 3, {12, 7, 5},    {64, 512},      {8, 4, 3},     {1, 1, 1},    kNone, kNoSwizzle, {10, 6, 4},   0},
  {"corner-r3-2",        kU32, 4, 3, {12, 7, 5},    {64, 512},      {8, 4, 3},     {1, 1, 1},    kNone, kNoSwizzle, {2, 1, 1},    0},
  {"corner-r4-6",        kU32, 4, 4, {8, 5, 4, 3},  {48, 240, 1200},{4, 3, 2, 2},  {1, 1, 1, 1}, kNone, kNoSwizzle, {6, 4, 3, 2}, 0},
  {"corner-r4-minus2",   kU32, 4, 4, {8, 5, 4, 3},  {48, 240, 1200},{4, 3, 2, 2},  {1, 1, 1, 1}, kNone, kNoSwizzle, {-2, -1, -1, -1}, 0},
  {"corner-r4-minus4",   kU32, 4, 4, {8, 5, 4, 3},  {48, 240, 1200},{4, 3, 2, 2},  {1, 1, 1, 1}, kNone, kNoSwizzle, {-4, -1, -1, -1}, 0},
};
// clang-format on
constexpr int kVariantCount = sizeof(kVariants) / sizeof(kVariants[0]);

// Global allocation: kGlobalGuard bytes, the tensor, kGlobalGuard bytes. Every element-sized slot of the whole
// allocation holds its slot number + 1, so a byte read from anywhere in it names its source.
constexpr std::size_t kGlobalGuard = 16384;
// Shared window: 200 KiB (opt-in), the destination kDstOffset bytes in, so writes before and after it are seen.
constexpr unsigned kWindow = 200 * 1024;
constexpr unsigned kDstOffset = 16384;
// Bound of the "expect the model" wait, and the transaction count the measuring run expects (more than any window).
constexpr unsigned kTryWaitLimit = 1u << 16;
constexpr unsigned kMeasureTx = 1u << 19;

std::size_t tensor_bytes(const Variant& v) { return v.strides[v.rank - 2] * v.dims[v.rank - 1]; }

// ---------------------------------------------------------------------------------------------------------------
// Host models

unsigned swizzle_period(CUtensorMapSwizzle s) {
  switch (s) {
    case CU_TENSOR_MAP_SWIZZLE_32B: return 2;
    case CU_TENSOR_MAP_SWIZZLE_64B: return 4;
    case CU_TENSOR_MAP_SWIZZLE_128B: return 8;
    default: return 1;
  }
}

unsigned swizzled(unsigned byte, unsigned period) {
  if (period == 1) return byte;
  const unsigned row = byte / 128, chunk = byte % 128 / 16;
  return row * 128 + ((row % period) ^ chunk) * 16 + byte % 16;
}

unsigned chunk_bytes(const Variant& v) {
  return v.interleave == k16B ? 16 : v.interleave == k32B ? 32 : v.element_bytes;
}

// The box as a model sees it: dimension-0 elements of `unit` bytes, element strides (dimension 0's only under
// interleave), zero outside the tensor, row-major, then swizzled. `global` is the whole padded allocation.
std::vector<unsigned char> model_box(const Variant& v, unsigned unit, const std::vector<unsigned char>& global) {
  unsigned counts[5], steps[5], elements = 1;
  for (unsigned i = 0; i < v.rank; ++i) {
    steps[i] = i == 0 && v.interleave == kNone ? 1 : v.element_strides[i];
    counts[i] = (v.box[i] + steps[i] - 1) / steps[i];
    elements *= counts[i];
  }
  std::vector<unsigned char> box(static_cast<std::size_t>(elements) * unit, 0);
  const unsigned period = swizzle_period(v.swizzle);
  const std::size_t base = kGlobalGuard + v.base_shift;
  for (unsigned e = 0; e < elements; ++e) {
    unsigned rest = e;
    bool inside = true;
    std::size_t offset = 0;
    for (unsigned i = 0; i < v.rank; ++i) {
      const long long g = v.corner[i] + static_cast<long long>(rest % counts[i]) * steps[i];
      rest /= counts[i];
      if (g < 0 || g >= static_cast<long long>(v.dims[i])) inside = false;
      if (inside) offset += static_cast<std::size_t>(g) * (i == 0 ? unit : v.strides[i - 1]);
    }
    for (unsigned b = 0; b < unit; ++b) {
      const std::size_t at = base + offset + b;
      box[swizzled(e * unit + b, period)] = inside && at < global.size() ? global[at] : 0;
    }
  }
  return box;
}

// ---------------------------------------------------------------------------------------------------------------
// Device

struct Coords {
  int value[5];
};

// One thread issues the copy into dst = window + kDstOffset (the window pre-filled with `fill`). measure == 0: the
// barrier expects `expect` bytes (after the copy, as the suite does) and every thread waits, bounded; result[0] is 1 if
// the phase completed. measure == 1: the barrier expects kMeasureTx bytes first; after ~2 ms thread 0 completes single
// bytes (mbarrier.complete_tx) until the phase completes: result[1] = kMeasureTx - those = the bytes the copy counted
// (0xFFFFFFFF if it never completed). Then the block dumps the whole window.
template <int Rank>
__global__ void probe(const __grid_constant__ CUtensorMap map, Coords at, unsigned expect, unsigned measure,
                      unsigned char fill, unsigned char* dump, unsigned* result) {
  extern __shared__ __align__(128) unsigned char raw[];
  __shared__ std::uint64_t bar;
  unsigned char* const window =
      reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(raw) + 1023) & ~std::uintptr_t{1023});
  unsigned char* const dst = window + kDstOffset;
  for (unsigned i = threadIdx.x; i < kWindow; i += blockDim.x) window[i] = fill;
  ptx::fence_proxy_async(ptx::space_shared);
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  std::int32_t coords[Rank];
  for (int i = 0; i < Rank; ++i) coords[i] = at.value[i];
  if (measure == 0) {
    if (threadIdx.x == 0) {
      ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, dst, &map, coords, &bar);
      (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, expect);
    }
    bool done = false;
    for (unsigned tries = 0; tries < kTryWaitLimit && !done; ++tries) done = ptx::mbarrier_try_wait_parity(&bar, 0);
    if (threadIdx.x == 0) result[0] = done;
  } else if (threadIdx.x == 0) {
    const std::uint32_t measure_tx = kMeasureTx;  // a value: the wrapper takes a reference
    (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, measure_tx);
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, dst, &map, coords, &bar);
    const std::uint64_t start = ptx::get_sreg_globaltimer();
    while (ptx::get_sreg_globaltimer() - start < 2000000) {
    }
    const auto address = static_cast<std::uint32_t>(__cvta_generic_to_shared(&bar));
    unsigned delivered = 0xFFFFFFFFu;
    for (unsigned k = 1; k <= kMeasureTx; ++k) {
      asm volatile("mbarrier.complete_tx.shared::cta.b64 [%0], 1;" ::"r"(address) : "memory");
      if (ptx::mbarrier_test_wait_parity(&bar, 0)) {
        delivered = kMeasureTx - k;
        break;
      }
    }
    result[1] = delivered;
  }
  __syncthreads();
  for (unsigned i = threadIdx.x; i < kWindow; i += blockDim.x) dump[i] = window[i];
}

// ---------------------------------------------------------------------------------------------------------------
// One variant (in a child process)

#define CHECK(call)                                                                                              \
  do {                                                                                                           \
    const cudaError_t status_ = (call);                                                                          \
    if (status_ != cudaSuccess) {                                                                                \
      std::printf("%-20s CUDA error %s at %s\n", v.name, cudaGetErrorName(status_), #call);                    \
      return 2;                                                                                                  \
    }                                                                                                            \
  } while (0)

template <int Rank>
cudaError_t launch(const CUtensorMap& map, const Coords& at, unsigned expect, unsigned measure, unsigned char fill,
                   unsigned char* dump, unsigned* result) {
  cudaError_t status = cudaFuncSetAttribute(probe<Rank>, cudaFuncAttributeMaxDynamicSharedMemorySize, kWindow + 1024);
  if (status != cudaSuccess) return status;
  probe<Rank><<<1, 128, kWindow + 1024>>>(map, at, expect, measure, fill, dump, result);
  status = cudaGetLastError();
  return status != cudaSuccess ? status : cudaDeviceSynchronize();
}

cudaError_t launch_rank(unsigned rank, const CUtensorMap& map, const Coords& at, unsigned expect, unsigned measure,
                        unsigned char fill, unsigned char* dump, unsigned* result) {
  switch (rank) {
    case 3: return launch<3>(map, at, expect, measure, fill, dump, result);
    case 4: return launch<4>(map, at, expect, measure, fill, dump, result);
    default: return launch<5>(map, at, expect, measure, fill, dump, result);
  }
}

// "+<byte offset from the tensor base>" of the slot whose number the element at `at` of the dump holds, "Z" for an
// all-zero chunk, "." for an unwritten one.
std::string describe_chunk(const Variant& v, const std::vector<unsigned char>& dump, const std::vector<bool>& written,
                           std::size_t at) {
  bool any = false, zero = true;
  for (unsigned b = 0; b < 16; ++b) {
    any = any || written[at + b];
    zero = zero && dump[at + b] == 0;
  }
  if (!any) return ".";
  if (zero) return "Z";
  std::uint64_t value = 0;
  for (unsigned b = 0; b < v.element_bytes; ++b) value |= std::uint64_t{dump[at + b]} << (8 * b);
  if (value == 0) return "0?";  // a zero element at the start of a chunk that is not all zero
  const long long offset = static_cast<long long>((value - 1) * v.element_bytes) -
                           static_cast<long long>(kGlobalGuard + v.base_shift);
  return (offset >= 0 ? "+" : "") + std::to_string(offset);
}

int run_variant(int index, bool verbose) {
  const Variant& v = kVariants[index];
  auto* const encode = [] {
    void* function = nullptr;
    cudaDriverEntryPointQueryResult query{};
    cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 12000, cudaEnableDefault, &query);
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);
  }();
  // The padded allocation, numbered slot by slot.
  const std::size_t total = kGlobalGuard + v.base_shift + tensor_bytes(v) + kGlobalGuard;
  std::vector<unsigned char> global(total);
  for (std::size_t slot = 0; slot < total / v.element_bytes; ++slot) {
    for (unsigned b = 0; b < v.element_bytes; ++b) {
      global[slot * v.element_bytes + b] = static_cast<unsigned char>((slot + 1) >> (8 * b));
    }
  }
  const std::vector<unsigned char> h1 = model_box(v, v.element_bytes, global);
  const std::vector<unsigned char> h2 = model_box(v, chunk_bytes(v), global);
  if (encode == nullptr) {
    std::printf("%-20s no cuTensorMapEncodeTiled (no driver?) H1=%zu H2=%zu\n", v.name, h1.size(), h2.size());
    return 2;
  }
  unsigned char* device_global = nullptr;
  CHECK(cudaMalloc(&device_global, total));
  CHECK(cudaMemcpy(device_global, global.data(), total, cudaMemcpyHostToDevice));

  CUtensorMap map{};
  const CUresult encoded = encode(&map, v.type, v.rank, device_global + kGlobalGuard + v.base_shift, v.dims, v.strides,
                                  v.box, v.element_strides, v.interleave, v.swizzle, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (encoded != CUDA_SUCCESS) {
    std::printf("%-20s encode=%d (not encoded: nothing launched) H1=%zu H2=%zu\n", v.name, static_cast<int>(encoded),
                h1.size(), h2.size());
    return 0;
  }

  unsigned char* device_dump = nullptr;
  unsigned* device_result = nullptr;
  CHECK(cudaMalloc(&device_dump, kWindow));
  CHECK(cudaMalloc(&device_result, 2 * sizeof(unsigned)));
  CHECK(cudaMemset(device_result, 0xFF, 2 * sizeof(unsigned)));
  Coords at{};
  for (unsigned i = 0; i < v.rank; ++i) at.value[i] = v.corner[i];

  // Run 1: expect the suite model's bytes, window filled with 0xFF. Run 2: measure, window filled with 0x00.
  std::vector<unsigned char> dump_ff(kWindow), dump_00(kWindow);
  unsigned result[2];
  cudaError_t status = launch_rank(v.rank, map, at, static_cast<unsigned>(h1.size()), 0, 0xFF, device_dump,
                                   device_result);
  if (status != cudaSuccess) {
    std::printf("%-20s encode=0 H1=%zu H2=%zu run(expect H1) FAULT %s\n", v.name, h1.size(), h2.size(),
                cudaGetErrorName(status));
    return 3;
  }
  CHECK(cudaMemcpy(dump_ff.data(), device_dump, kWindow, cudaMemcpyDeviceToHost));
  status = launch_rank(v.rank, map, at, 0, 1, 0x00, device_dump, device_result);
  if (status != cudaSuccess) {
    std::printf("%-20s encode=0 H1=%zu H2=%zu run(measure) FAULT %s\n", v.name, h1.size(), h2.size(),
                cudaGetErrorName(status));
    return 3;
  }
  CHECK(cudaMemcpy(dump_00.data(), device_dump, kWindow, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(result, device_result, sizeof result, cudaMemcpyDeviceToHost));

  // A byte was written if it differs from the fill in either run (no byte equals both 0xFF and 0x00).
  std::vector<bool> written(kWindow);
  std::size_t count = 0;
  long long first = -1, last = -1;
  for (unsigned i = 0; i < kWindow; ++i) {
    written[i] = dump_ff[i] != 0xFF || dump_00[i] != 0x00;
    if (!written[i]) continue;
    ++count;
    if (first < 0) first = i;
    last = i;
  }
  bool runs_agree = true;  // the written bytes are the same data in both runs
  for (unsigned i = 0; i < kWindow; ++i) {
    if (written[i] && dump_ff[i] != dump_00[i] && dump_ff[i] != 0xFF && dump_00[i] != 0x00) runs_agree = false;
  }
  // The written data: the 0x00-filled run's byte, except where the data is 0x00 (then the 0xFF run shows it).
  std::vector<unsigned char> data(kWindow);
  for (unsigned i = 0; i < kWindow; ++i) {
    data[i] = dump_00[i] != 0x00 ? dump_00[i] : dump_ff[i] == 0xFF ? 0 : dump_ff[i];
  }
  auto matches = [&](const std::vector<unsigned char>& model) {
    if (count != model.size() || first != static_cast<long long>(kDstOffset)) return false;
    for (std::size_t i = 0; i < model.size(); ++i) {
      if (!written[kDstOffset + i] || data[kDstOffset + i] != model[i]) return false;
    }
    return true;
  };
  char delivered[24];
  if (result[1] == 0xFFFFFFFFu) {
    std::snprintf(delivered, sizeof delivered, "none/>%u", kMeasureTx);
  } else {
    std::snprintf(delivered, sizeof delivered, "%u", result[1]);
  }
  std::printf("%-20s encode=0 H1=%zu H2=%zu done(expect H1)=%u tx=%s written=%zu at=[%lld,%lld] matchH1=%s "
              "matchH2=%s%s\n",
              v.name, h1.size(), h2.size(), result[0], delivered, count,
              first < 0 ? 0 : first - static_cast<long long>(kDstOffset),
              last < 0 ? -1 : last - static_cast<long long>(kDstOffset), matches(h1) ? "yes" : "no",
              matches(h2) ? "yes" : "no", runs_agree ? "" : " RUNS-DIFFER");
  if (verbose && count > 0) {
    // Every 16-byte chunk from the first to the last written byte, relative to the destination.
    const std::size_t from = static_cast<std::size_t>(first) & ~std::size_t{15};
    std::printf("  map (16-byte chunks from dst%+lld; +N = source byte offset from the tensor base):",
                static_cast<long long>(from) - static_cast<long long>(kDstOffset));
    for (std::size_t at_chunk = from, n = 0; at_chunk <= static_cast<std::size_t>(last); at_chunk += 16, ++n) {
      std::printf("%s%s", n % 16 == 0 ? "\n   " : " ", describe_chunk(v, data, written, at_chunk).c_str());
    }
    std::printf("\n");
  }
  return 0;
}

}  // namespace

// No argument: every variant, each in a child process. One argument N: variant N only. -v: the chunk maps too.
int main(int argc, char** argv) {
  bool verbose = false;
  int only = -1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "-v") == 0) {
      verbose = true;
    } else {
      only = std::atoi(argv[i]);
    }
  }
  if (only >= 0) return only < kVariantCount ? run_variant(only, verbose) : 2;
  std::printf("H1 = suite model bytes, H2 = whole-chunk model bytes, done(expect H1) = barrier expecting H1 "
              "completed,\ntx = bytes the copy counted on the barrier, written = shared bytes written, at = first/last "
              "written byte\nrelative to the destination\n");
  std::fflush(stdout);
  for (int i = 0; i < kVariantCount; ++i) {
    const pid_t child = fork();
    if (child == 0) {
      std::string index = std::to_string(i);
      char* child_argv[] = {argv[0], index.data(), const_cast<char*>(verbose ? "-v" : nullptr), nullptr};
      execv("/proc/self/exe", child_argv);
      std::_Exit(127);
    }
    int status = 0;
    waitpid(child, &status, 0);
    if (!WIFEXITED(status)) std::printf("%-20s child ended by signal %d\n", kVariants[i].name, WTERMSIG(status));
    std::fflush(stdout);
  }
  return 0;
}
