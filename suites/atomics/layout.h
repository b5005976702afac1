// Where the threads of an atomics rule work: memory space, scope, launch shape and how threads share addresses.
// Host-only; the kernels that use it are in rmw.h.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "history.h"

namespace atomics {

enum class Space { Global, Shared };
// The scope an operation is atomic at: a legacy function's suffix (none = Device, _block, _system), an atomic_ref's
// thread_scope, a built-in's __NV_THREAD_SCOPE_*.
enum class Scope { Thread, Block, Cluster, Device, System };

struct Variant {
  Space space;
  Scope scope;
};

std::string name_of(Space space);
std::string name_of(Scope scope);
inline std::string name_of(Variant v) { return name_of(v.space) + name_of(v.scope); }
inline void PrintTo(const Variant& v, std::ostream* out) { *out << name_of(v); }
inline std::string variant_name(const ::testing::TestParamInfo<Variant>& info) { return name_of(info.param); }

// Every combination of the given spaces and scopes.
std::vector<Variant> variants(std::vector<Space> spaces, std::vector<Scope> scopes);

// A launch and how its threads share cells: `group` consecutive threads per cell.
struct Layout {
  unsigned blocks;
  unsigned threads;  // per block
  unsigned group;
  unsigned total() const { return blocks * threads; }
  unsigned cells() const { return total() / group; }
};

// Contention sizes: how many threads share one cell when the scope spans the grid (device, system) and when it
// spans one block (block scope, and every shared-memory cell). Both are full blocks of threads, sized to be no
// multiple of the warp size.
struct Contention {
  unsigned grid_blocks = 48;
  unsigned grid_threads = 250;
  unsigned block_blocks = 4;
  unsigned block_threads = 1000;
  unsigned cells = 1;  // per grid-spanning scope, and per block: adjacent cells, each with its share of the threads

  Contention scaled_for_profile() const;  // the full profile runs 8 times as many blocks
};

// One cell per block, or one cell for the whole grid when the scope reaches across blocks (device, system) and the
// cell is in global memory.
Layout contention_layout(Variant v, Contention c = {});
// One thread per cell: the documented formula on independent addresses.
inline Layout table_layout(unsigned entries) { return {1, entries, 1}; }

// Checks each cell of a run: check(initial value, arguments of its threads, values they got, final value); stops at
// the first failing cell and names it.
using CellCheck = std::function<::testing::AssertionResult(const Value& init, const std::vector<Value>& args,
                                                           const std::vector<Value>& olds, const Value& final_value)>;
::testing::AssertionResult EveryCell(const Layout& layout, const std::vector<Value>& initial,
                                     const std::vector<Value>& args, const std::vector<Value>& olds,
                                     const std::vector<Value>& finals, const CellCheck& check);

// A check of the checks, for machines without a GPU: with CUCONFORM_ATOMICS_SIMULATE set, the rules built on
// run_rmw run on the host instead, executing each cell's operations in a random serial order from the host model
// ("serial": every such rule must pass), or injecting a fault that every rule it applies to must catch:
// "lost-update" (one thread per contended cell reads the value before its predecessor's write and overwrites it),
// "wrong-old" (one returned value per launch is off by one bit), "wrong-final" (each final value is off by one bit).
enum class Simulation { Off, Serial, LostUpdate, WrongOld, WrongFinal };
Simulation simulation();

// An atomic operation, erased: the kernel (rmw_on_global or rmw_on_shared of rmw.h), the sizes of the value, the
// argument and what a thread records, the host model, and (when a thread records more than the old value) what it
// records for a given old value.
struct ErasedOp {
  const void* kernel;
  std::size_t value_size, arg_size, out_size;
  std::function<Value(const Value& old, const Value& arg)> model;
  std::function<Value(const Value& old, const Value& arg)> out_of;  // may be empty: the old value
};

struct ErasedRun {
  std::vector<Value> olds;    // per thread: what it recorded
  std::vector<Value> finals;  // per cell
};

// Launches op.kernel (the kernel's parameters: cells, args, per-thread records, group), or simulates it on the host
// under CUCONFORM_ATOMICS_SIMULATE. Throws cuconform::CudaError when a CUDA call fails.
ErasedRun run_erased(const ErasedOp& op, Space space, const Layout& layout, const std::vector<Value>& initial,
                     const std::vector<Value>& args);

// splitmix32: well-spread, reproducible per-thread arguments.
inline unsigned mix(unsigned x) {
  x += 0x9e3779b9u;
  x = (x ^ (x >> 16)) * 0x85ebca6bu;
  x = (x ^ (x >> 13)) * 0xc2b2ae35u;
  return x ^ (x >> 16);
}

}  // namespace atomics
