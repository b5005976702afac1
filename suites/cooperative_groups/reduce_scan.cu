// PG12.9 11.7.3 Data Manipulation: cg::reduce with the operators of PG12.9 11.7.3.2 over every arithmetic type they
// apply to, on tiles of every size and on coalesced groups of divergent, partially populated warps; inclusive_scan
// and exclusive_scan (with and without an operator). Every thread's result is compared with a host fold over the
// group's members in rank order.
#include "cg_common.h"

#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

namespace {

using namespace cuconform::cg_area;

enum Kind : int { kReduce, kInclusive, kExclusive, kInclusiveDefault, kExclusiveDefault, kReduceLambda };

// Each thread's input, chosen so that every fold is exact whatever the order (small integers in floating types).
template <class T>
__host__ __device__ T input(unsigned g) {
  const std::uint32_t h = mix(g * 2654435761u + 1);
  if constexpr (std::is_same_v<T, int>) return static_cast<int>(h % 2001) - 1000;
  else if constexpr (std::is_same_v<T, unsigned>) return h;
  else if constexpr (std::is_same_v<T, long long>) return (static_cast<long long>(h) << 20) - (1ll << 51);
  else if constexpr (std::is_same_v<T, unsigned long long>) return h * 0x100000001ull + (g & 7);
  else if constexpr (std::is_same_v<T, float>) return static_cast<float>(static_cast<int>(h % 201) - 100);
  else return static_cast<double>(static_cast<int>(h % (1u << 20)) - (1 << 19));
}

// The lanes of warp w that take the branch of the coalesced-group cases (partial warps are cut by the block size).
__host__ __device__ inline unsigned coalesced_lanes(unsigned w) {
  switch (w % 4) {
    case 0: return 0xffffffffu;
    case 1: return 0x9e3779b9u;
    case 2: return 0x00000114u;
    default: return 0x80000001u;
  }
}

template <class T, class Op, int K, class Group>
__device__ T apply(const Group& group, T value) {
  if constexpr (K == kReduce) return cg::reduce(group, value, Op());
  else if constexpr (K == kInclusive) return cg::inclusive_scan(group, value, Op());
  else if constexpr (K == kExclusive) return cg::exclusive_scan(group, value, Op());
  else if constexpr (K == kInclusiveDefault) return cg::inclusive_scan(group, value);
  else if constexpr (K == kExclusiveDefault) return cg::exclusive_scan(group, value);
  else return cg::reduce(group, value, [](T a, T b) { return a + b; });
}

// Size 0: the coalesced group of a branch; otherwise thread_block_tile<Size>. Non-members leave their slot alone.
template <class T, class Op, unsigned Size, int K>
__global__ void collective(T* out) {
  const unsigned n = blockDim.x * blockDim.y * blockDim.z, l = linear_thread(), g = linear_block() * n + l;
  if constexpr (Size == 0) {
    const unsigned warp = linear_block() * ((n + 31) / 32) + l / 32;
    if ((coalesced_lanes(warp) >> (l % 32)) & 1u) out[g] = apply<T, Op, K>(cg::coalesced_threads(), input<T>(g));
  } else {
    const cg::thread_block_tile<Size> tile = cg::tiled_partition<Size>(cg::this_thread_block());
    out[g] = apply<T, Op, K>(tile, input<T>(g));
  }
}

// The host's fold for each operator (PG12.9 11.7.3.2: less / greater return the lesser / greater value).
template <class T>
T host_op(cg::plus<T>, T a, T b) {
  return static_cast<T>(a + b);
}
template <class T>
T host_op(cg::less<T>, T a, T b) {
  return b < a ? b : a;
}
template <class T>
T host_op(cg::greater<T>, T a, T b) {
  return a < b ? b : a;
}
template <class T>
T host_op(cg::bit_and<T>, T a, T b) {
  return a & b;
}
template <class T>
T host_op(cg::bit_or<T>, T a, T b) {
  return a | b;
}
template <class T>
T host_op(cg::bit_xor<T>, T a, T b) {
  return a ^ b;
}

template <class T>
std::string type_name() {
  if constexpr (std::is_same_v<T, int>) return "int";
  else if constexpr (std::is_same_v<T, unsigned>) return "unsigned";
  else if constexpr (std::is_same_v<T, long long>) return "long long";
  else if constexpr (std::is_same_v<T, unsigned long long>) return "unsigned long long";
  else if constexpr (std::is_same_v<T, float>) return "float";
  else return "double";
}

// Launches one case and compares every member's result with the host fold over its group; returns the failures.
template <class T, class Op, unsigned Size, int K>
::testing::AssertionResult run_case() {
  constexpr bool coalesced = Size == 0;
  const dim3 block = coalesced ? dim3(45) : Size <= 32 ? dim3(8, 4, 3) : dim3(2 * Size);
  const unsigned blocks = coalesced ? 3 : 2, n = volume(block), total = blocks * n;
  // A sentinel in every slot: non-members of the coalesced cases must leave it.
  std::vector<T> initial(total, static_cast<T>(77));
  cuconform::DeviceBuffer<T> out(initial);
  cuconform::launch(collective<T, Op, Size, K>, dim3(blocks), block, out.get());
  const std::vector<T> got = out.to_host();
  std::vector<T> expected = initial;
  std::vector<bool> checked(total, false);
  for (unsigned b = 0; b < blocks; ++b) {
    for (unsigned first = 0; first < n; first += coalesced ? 32 : Size) {
      // Members of this group in rank order (global indices).
      std::vector<unsigned> members;
      if constexpr (coalesced) {
        const unsigned lanes = coalesced_lanes(b * ((n + 31) / 32) + first / 32);
        for (unsigned lane = 0; lane < 32 && first + lane < n; ++lane) {
          if ((lanes >> lane) & 1u) members.push_back(b * n + first + lane);
        }
      } else {
        for (unsigned r = 0; r != Size; ++r) members.push_back(b * n + first + r);
      }
      for (unsigned r = 0; r < members.size(); ++r) {
        const bool exclusive = K == kExclusive || K == kExclusiveDefault;
        const unsigned last = (K == kReduce || K == kReduceLambda) ? members.size() - 1 : exclusive ? r - 1 : r;
        if (exclusive && r == 0) continue;  // the guide does not say what rank 0 gets
        using HostOp =
            std::conditional_t<K == kInclusiveDefault || K == kExclusiveDefault || K == kReduceLambda, cg::plus<T>, Op>;
        T fold = input<T>(members[0]);
        for (unsigned i = 1; i <= last; ++i) fold = host_op(HostOp(), fold, input<T>(members[i]));
        expected[members[r]] = fold;
        checked[members[r]] = true;
      }
    }
  }
  // Unchecked slots (exclusive rank 0) compare with what the GPU wrote.
  for (unsigned i = 0; i < total; ++i) {
    const bool exclusive = K == kExclusive || K == kExclusiveDefault;
    if (!checked[i] && exclusive && got[i] != initial[i]) expected[i] = got[i];
  }
  auto result = cuconform::ElementsEqual(got, expected);
  if (!result) {
    result << "\n  " << type_name<T>() << ", " << typeid(Op).name() << ", "
           << (coalesced ? std::string("coalesced group") : "tile " + std::to_string(Size)) << "; element [block * "
           << n << " + block thread rank]";
  }
  return result;
}

template <template <class> class Op, unsigned Size, int K, class... T>
void run_types() {
  ([] { EXPECT_TRUE((run_case<T, Op<T>, Size, K>())); }(), ...);
}

class Reduce : public cuconform::GpuTest {};

#define CUCONFORM_ALL_TYPES int, unsigned, long long, unsigned long long, float, double
#define CUCONFORM_INTEGRAL_TYPES int, unsigned, long long, unsigned long long

RULE_F(Reduce, PlusSumsTheGroup, "PG12.9 11.7.3.1",
       "reduce(group, val, cg::plus<T>()) returns the sum of every member's val to every member, for tiles of 32 and "
       "coalesced groups of divergent and partial warps, T = int, unsigned, long long, unsigned long long, float, "
       "double") {
  run_types<cg::plus, 32, kReduce, CUCONFORM_ALL_TYPES>();
  run_types<cg::plus, 0, kReduce, CUCONFORM_ALL_TYPES>();
}

RULE_F(Reduce, LessReturnsTheLeastValue, "PG12.9 11.7.3.2",
       "reduce with cg::less<T> returns the lowest value (not a Boolean), for every arithmetic T") {
  run_types<cg::less, 32, kReduce, CUCONFORM_ALL_TYPES>();
  run_types<cg::less, 0, kReduce, CUCONFORM_ALL_TYPES>();
}

RULE_F(Reduce, GreaterReturnsTheGreatestValue, "PG12.9 11.7.3.2",
       "reduce with cg::greater<T> returns the greatest value (not a Boolean), for every arithmetic T") {
  run_types<cg::greater, 32, kReduce, CUCONFORM_ALL_TYPES>();
  run_types<cg::greater, 0, kReduce, CUCONFORM_ALL_TYPES>();
}

RULE_F(Reduce, BitOperatorsCombineEveryMember, "PG12.9 11.7.3.2",
       "reduce with cg::bit_and / bit_or / bit_xor returns operator&, | and ^ over every member, for every integral "
       "T") {
  run_types<cg::bit_and, 32, kReduce, CUCONFORM_INTEGRAL_TYPES>();
  run_types<cg::bit_and, 0, kReduce, CUCONFORM_INTEGRAL_TYPES>();
  run_types<cg::bit_or, 32, kReduce, CUCONFORM_INTEGRAL_TYPES>();
  run_types<cg::bit_or, 0, kReduce, CUCONFORM_INTEGRAL_TYPES>();
  run_types<cg::bit_xor, 32, kReduce, CUCONFORM_INTEGRAL_TYPES>();
  run_types<cg::bit_xor, 0, kReduce, CUCONFORM_INTEGRAL_TYPES>();
}

RULE_F(Reduce, WorksOnTilesOfEverySize, "PG12.9 11.7.3.1",
       "reduce is valid on thread_block_tile of every size 1 .. 512 (types of at most 8 bytes on tiles larger than "
       "32): plus<unsigned> and bit_xor<unsigned long long>") {
  run_types<cg::plus, 1, kReduce, unsigned>();
  run_types<cg::plus, 2, kReduce, unsigned>();
  run_types<cg::plus, 4, kReduce, unsigned>();
  run_types<cg::plus, 8, kReduce, unsigned>();
  run_types<cg::plus, 16, kReduce, unsigned>();
  run_types<cg::plus, 64, kReduce, unsigned>();
  run_types<cg::plus, 128, kReduce, unsigned>();
  run_types<cg::plus, 256, kReduce, unsigned>();
  run_types<cg::plus, 512, kReduce, unsigned>();
  run_types<cg::bit_xor, 4, kReduce, unsigned long long>();
  run_types<cg::bit_xor, 64, kReduce, unsigned long long>();
  run_types<cg::bit_xor, 512, kReduce, unsigned long long>();
}

RULE_F(Reduce, AcceptsALambda, "PG12.9 11.7.3.1",
       "reduce also takes a lambda as the operator: [](T a, T b) { return a + b; } gives the sum") {
  run_types<cg::plus, 32, kReduceLambda, int, double>();
  run_types<cg::plus, 0, kReduceLambda, int, double>();
  run_types<cg::plus, 128, kReduceLambda, unsigned>();
}

// Tiles of two: a pair's one addition has one order, so cg::reduce with cg::plus<float> must give a + b as the
// device's IEEE addition rounds it (PG12.9 20.3: to nearest even; subnormals kept without -ftz=true), and cg::less /
// cg::greater must tell two subnormals apart. PlusSumsTheGroup's values are small integers, exact in any order.
__global__ void reduce_float_pairs(const float* in, float* sum, float* least, float* greatest) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const cg::thread_block_tile<2> pair = cg::tiled_partition<2>(cg::this_thread_block());
  sum[i] = cg::reduce(pair, in[i], cg::plus<float>());
  least[i] = cg::reduce(pair, in[i], cg::less<float>());
  greatest[i] = cg::reduce(pair, in[i], cg::greater<float>());
}

RULE_F(Reduce, FloatPairsRoundToNearestAndKeepSubnormals, "PG12.9 11.7.3.2",
       "reduce of two floats with cg::plus<float> is their sum rounded to nearest even, and cg::less / cg::greater "
       "return the lesser / greater of two subnormals (PG12.9 20.3: IEEE addition, subnormals kept without -ftz)") {
  constexpr unsigned kPairs = 128;
  std::mt19937 random(0x2b);
  std::uniform_real_distribution<float> unit(1.0f, 2.0f);
  std::uniform_int_distribution<int> steps(1, 1 << 20);
  std::vector<float> in;
  for (unsigned p = 0; p < kPairs; ++p) {
    if (p < kPairs / 2) {  // sums that round: a in [1, 2), b a few binades lower, either sign
      in.push_back(unit(random));
      in.push_back(std::ldexp(unit(random), -int(1 + p % 20)) * (p % 3 == 0 ? -1.0f : 1.0f));
    } else {  // two distinct subnormals (multiples of 2^-149), either sign
      const int a = steps(random), b = a + 1 + steps(random) % 1000;
      in.push_back(std::ldexp(float(a), -149) * (p % 4 == 0 ? -1.0f : 1.0f));
      in.push_back(std::ldexp(float(b), -149) * (p % 5 == 0 ? -1.0f : 1.0f));
    }
  }
  std::vector<float> sum, least, greatest;
  for (unsigned p = 0; p < kPairs; ++p) {
    const float a = in[2 * p], b = in[2 * p + 1];
    for (int lane = 0; lane < 2; ++lane) {
      sum.push_back(a + b);
      least.push_back(b < a ? b : a);
      greatest.push_back(a < b ? b : a);
    }
  }
  cuconform::DeviceBuffer<float> device_in(in), device_sum(in.size()), device_least(in.size()),
      device_greatest(in.size());
  cuconform::launch(reduce_float_pairs, 2, kPairs, device_in.get(), device_sum.get(), device_least.get(),
                    device_greatest.get());
  EXPECT_TRUE(cuconform::ElementsEqual(device_sum.to_host(), sum)) << "cg::plus<float>";
  EXPECT_TRUE(cuconform::ElementsEqual(device_least.to_host(), least)) << "cg::less<float>";
  EXPECT_TRUE(cuconform::ElementsEqual(device_greatest.to_host(), greatest)) << "cg::greater<float>";
}

class Scan : public cuconform::GpuTest {};

#define CUCONFORM_SCAN_TYPES int, unsigned long long, float

RULE_F(Scan, InclusiveScanFoldsRanksUpToTheCaller, "PG12.9 11.7.3.3",
       "inclusive_scan(group, val, op) returns to each thread op over the vals of ranks 0 .. its own rank, for plus, "
       "less, greater and bit_xor") {
  run_types<cg::plus, 32, kInclusive, CUCONFORM_SCAN_TYPES>();
  run_types<cg::plus, 0, kInclusive, CUCONFORM_SCAN_TYPES>();
  run_types<cg::less, 32, kInclusive, CUCONFORM_SCAN_TYPES>();
  run_types<cg::greater, 0, kInclusive, CUCONFORM_SCAN_TYPES>();
  run_types<cg::bit_xor, 8, kInclusive, unsigned>();
  run_types<cg::bit_xor, 0, kInclusive, unsigned>();
}

RULE_F(Scan, ExclusiveScanFoldsLowerRanks, "PG12.9 11.7.3.3",
       "exclusive_scan(group, val, op) returns to each thread of rank > 0 op over the vals of lower ranks") {
  run_types<cg::plus, 32, kExclusive, CUCONFORM_SCAN_TYPES>();
  run_types<cg::plus, 0, kExclusive, CUCONFORM_SCAN_TYPES>();
  run_types<cg::less, 0, kExclusive, CUCONFORM_SCAN_TYPES>();
  run_types<cg::greater, 32, kExclusive, CUCONFORM_SCAN_TYPES>();
  run_types<cg::bit_xor, 16, kExclusive, unsigned>();
}

RULE_F(Scan, WithoutAnOperatorTheScansSum, "PG12.9 11.7.3.3",
       "the overloads without an operator use cg::plus<T>(): inclusive_scan(group, val) and exclusive_scan(group, "
       "val) are running sums") {
  run_types<cg::plus, 32, kInclusiveDefault, CUCONFORM_SCAN_TYPES>();
  run_types<cg::plus, 0, kInclusiveDefault, CUCONFORM_SCAN_TYPES>();
  run_types<cg::plus, 32, kExclusiveDefault, CUCONFORM_SCAN_TYPES>();
  run_types<cg::plus, 0, kExclusiveDefault, CUCONFORM_SCAN_TYPES>();
}

RULE_F(Scan, WorksOnTilesOfEverySize, "PG12.9 11.7.3.3",
       "the scans are valid on thread_block_tile of every size 1 .. 512 (sums of unsigned and unsigned long long)") {
  run_types<cg::plus, 1, kInclusiveDefault, unsigned>();
  run_types<cg::plus, 2, kInclusiveDefault, unsigned>();
  run_types<cg::plus, 4, kExclusiveDefault, unsigned>();
  run_types<cg::plus, 8, kInclusiveDefault, unsigned>();
  run_types<cg::plus, 16, kExclusiveDefault, unsigned>();
  run_types<cg::plus, 64, kInclusiveDefault, unsigned>();
  run_types<cg::plus, 128, kExclusiveDefault, unsigned>();
  run_types<cg::plus, 256, kInclusiveDefault, unsigned long long>();
  run_types<cg::plus, 512, kExclusiveDefault, unsigned long long>();
}

__global__ void scan_tile_ranks(unsigned* out) {
  const cg::thread_block_tile<8> tile = cg::tiled_partition<8>(cg::this_thread_block());
  out[linear_thread()] = cg::inclusive_scan(tile, static_cast<unsigned>(tile.thread_rank()));
}

RULE_F(Scan, GuideExampleTileOfEightScansRanks, "PG12.9 11.7.3.3",
       "the guide's example: inclusive_scan over a tile of 8 of thread_rank() prints 0 1 3 6 10 15 21 28 per group") {
  constexpr unsigned n = 40;
  cuconform::DeviceBuffer<unsigned> out(n);
  cuconform::launch(scan_tile_ranks, dim3(1), dim3(n), out.get());
  const unsigned per_group[] = {0, 1, 3, 6, 10, 15, 21, 28};
  std::vector<unsigned> expected(n);
  for (unsigned i = 0; i < n; ++i) expected[i] = per_group[i % 8];
  EXPECT_TRUE(cuconform::ElementsEqual(out.to_host(), expected));
}

}  // namespace
