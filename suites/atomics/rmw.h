// Runs one atomic read-modify-write from many threads and returns what each thread got back and what each address
// ended with. Include from .cu files only.
//
// The threads of a launch are split into groups of consecutive threads (by global index); each group works on one
// cell. The cells live in global memory, or in the shared memory of each block (copied in before and out after, with
// a barrier on each side: the only plain accesses, so the kernels stay race-free under racecheck).
//
// An operation is a struct with
//   template <class T> using arg_type = ...;         what each thread passes (the value, or compare and value, ...)
//   template <Scope S, class T> static constexpr bool has = ...;            whether the scope exists for T
//   template <class T> static constexpr bool on_shared = ...;               whether it may target shared memory
//   template <Scope S, class T> __device__ static T apply(T* address, arg_type<T> arg);  one atomic operation
#pragma once

#include <cuconform/cuconform.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "history.h"
#include "layout.h"

namespace atomics {

// What each thread of Op records: by default the value its apply returns (the old value); an operation that reports
// more (a compare-exchange's success flag) declares `template <class T> using out_type = ...;` and
// `static out_type<T> out_of(T old, arg_type<T> arg)` for the simulation.
template <class Op, class T, class = void>
struct OutOf {
  using type = T;
};
template <class Op, class T>
struct OutOf<Op, T, std::void_t<typename Op::template out_type<T>>> {
  using type = typename Op::template out_type<T>;
};
template <class Op, class T>
using out_t = typename OutOf<Op, T>::type;

// Whether Op returns the old value; an operation that returns nothing (__nv_atomic_add, ...) declares
// `static constexpr bool returns_old = false;` and its rules check the final values alone.
template <class Op, class = void>
inline constexpr bool returns_old = true;
template <class Op>
inline constexpr bool returns_old<Op, std::void_t<decltype(Op::returns_old)>> = Op::returns_old;

template <class Op, Scope S, class T, class Arg, class Out>
__global__ void rmw_on_global(T* cells, const Arg* args, Out* olds, unsigned group) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  olds[i] = Op::template apply<S, T>(cells + i / group, args[i]);
}

template <class Op, Scope S, class T, class Arg, class Out>
__global__ void rmw_on_shared(T* cells, const Arg* args, Out* olds, unsigned group) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  T* local = reinterpret_cast<T*>(shared_bytes);
  const unsigned cells_per_block = blockDim.x / group;
  T* block_cells = cells + blockIdx.x * cells_per_block;
  for (unsigned c = threadIdx.x; c < cells_per_block; c += blockDim.x) local[c] = block_cells[c];
  __syncthreads();
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  olds[i] = Op::template apply<S, T>(local + threadIdx.x / group, args[i]);
  __syncthreads();
  for (unsigned c = threadIdx.x; c < cells_per_block; c += blockDim.x) block_cells[c] = local[c];
}

// REQUIRE_CC, except under CUCONFORM_ATOMICS_SIMULATE, which needs no device.
#define ATOMICS_REQUIRE_CC(major, minor) \
  if (::atomics::simulation() == ::atomics::Simulation::Off) REQUIRE_CC(major, minor)

// A rule built on run_rmw: a GPU rule, which also runs on the host under CUCONFORM_ATOMICS_SIMULATE.
template <class Param>
class RmwTest : public cuconform::GpuTestWithParam<Param> {
 protected:
  void SetUp() override {
    if (simulation() == Simulation::Off) cuconform::GpuTestWithParam<Param>::SetUp();
  }
};

template <class T, class Out = T>
struct Run {
  std::vector<Out> olds;  // per thread
  std::vector<T> finals;  // per cell
};

namespace detail {

template <class Op, class T, Scope S>
void launch_rmw(Space space, const Layout& layout, T* cells, const typename Op::template arg_type<T>* args,
                out_t<Op, T>* olds) {
  using Arg = typename Op::template arg_type<T>;
  using Out = out_t<Op, T>;
  if constexpr (Op::template has<S, T>) {
    if (space == Space::Global) {
      cuconform::launch(rmw_on_global<Op, S, T, Arg, Out>, cuconform::Shape{layout.blocks, layout.threads}, cells, args, olds,
                        layout.group);
      return;
    }
    if constexpr (Op::template on_shared<T>) {
      const std::size_t bytes = std::size_t(layout.threads / layout.group) * sizeof(T);
      cuconform::launch(rmw_on_shared<Op, S, T, Arg, Out>, cuconform::Shape{layout.blocks, layout.threads, bytes}, cells,
                        args, olds, layout.group);
      return;
    }
  }
  throw std::logic_error("this operation has no " + name_of(Variant{space, S}) + " form");
}

}  // namespace detail

// The host stand-in for a launch under CUCONFORM_ATOMICS_SIMULATE (see layout.h). A simulated lost update always loses
// a write that mattered: the thread after one that changed the value reads the value from before that change.
template <class Op, class T>
Run<T, out_t<Op, T>> simulate_rmw(const Layout& layout, const std::vector<T>& initial,
                                  const std::vector<typename Op::template arg_type<T>>& args) {
  static std::mt19937 random(12345);
  const auto flip = [](auto& value) { reinterpret_cast<unsigned char*>(&value)[0] ^= 1; };
  Run<T, out_t<Op, T>> run{std::vector<out_t<Op, T>>(layout.total()), initial};
  for (unsigned c = 0; c < layout.cells(); ++c) {
    std::vector<unsigned> order(layout.group);
    for (unsigned k = 0; k < layout.group; ++k) order[k] = c * layout.group + k;
    std::shuffle(order.begin(), order.end(), random);
    std::vector<unsigned> after_change;  // positions whose predecessor changed the value
    T state = initial[c];
    for (unsigned k = 0; k + 1 < layout.group; ++k) {
      const T next = Op::model(state, args[order[k]]);
      if (Value::of(next) != Value::of(state)) after_change.push_back(k + 1);
      state = next;
    }
    const bool inject = simulation() == Simulation::LostUpdate && !after_change.empty();
    const unsigned lost = inject ? after_change[random() % after_change.size()] : layout.group;
    state = initial[c];
    T before = state;
    for (unsigned k = 0; k < layout.group; ++k) {
      const T seen = k == lost ? before : state;
      if constexpr (std::is_same_v<out_t<Op, T>, T>) {
        run.olds[order[k]] = seen;
      } else {
        run.olds[order[k]] = Op::out_of(seen, args[order[k]]);
      }
      before = state;
      state = Op::model(seen, args[order[k]]);
    }
    run.finals[c] = state;
    if (simulation() == Simulation::WrongFinal) flip(run.finals[c]);
  }
  if (simulation() == Simulation::WrongOld) flip(run.olds[random() % run.olds.size()]);
  return run;
}

// Runs Op once per thread: thread i works on cell i / layout.group with args[i]. `initial` holds one value per cell.
template <class Op, class T>
Run<T, out_t<Op, T>> run_rmw(Variant v, const Layout& layout, const std::vector<T>& initial,
                             const std::vector<typename Op::template arg_type<T>>& args) {
  if (initial.size() != layout.cells() || args.size() != layout.total() || layout.total() % layout.group != 0 ||
      (v.space == Space::Shared && layout.threads % layout.group != 0)) {
    throw std::invalid_argument("run_rmw: layout, cells and arguments do not fit together");
  }
  if (simulation() != Simulation::Off) return simulate_rmw<Op, T>(layout, initial, args);
  cuconform::DeviceBuffer<T> cells(initial);
  cuconform::DeviceBuffer<typename Op::template arg_type<T>> device_args(args);
  cuconform::DeviceBuffer<out_t<Op, T>> olds(layout.total());
  switch (v.scope) {
    case Scope::Thread: detail::launch_rmw<Op, T, Scope::Thread>(v.space, layout, cells.get(), device_args.get(), olds.get()); break;
    case Scope::Block: detail::launch_rmw<Op, T, Scope::Block>(v.space, layout, cells.get(), device_args.get(), olds.get()); break;
    case Scope::Cluster: detail::launch_rmw<Op, T, Scope::Cluster>(v.space, layout, cells.get(), device_args.get(), olds.get()); break;
    case Scope::Device: detail::launch_rmw<Op, T, Scope::Device>(v.space, layout, cells.get(), device_args.get(), olds.get()); break;
    case Scope::System: detail::launch_rmw<Op, T, Scope::System>(v.space, layout, cells.get(), device_args.get(), olds.get()); break;
  }
  return {olds.to_host(), cells.to_host()};
}

// The semantics of Op on T: Op::model and the printers of T and of its argument type.
template <class Op, class T>
Semantics semantics() {
  using Arg = typename Op::template arg_type<T>;
  return semantics_of<T, Arg>([](const T& old, const Arg& arg) { return Op::model(old, arg); });
}

// EXPECTs that Op, run on one cell per thread from the given (old, arg) cases, returns each old and stores
// Op::model(old, arg).
template <class Op, class T>
void expect_table(Variant v, const std::vector<std::pair<T, typename Op::template arg_type<T>>>& cases) {
  using Arg = typename Op::template arg_type<T>;
  std::vector<T> initial;
  std::vector<Arg> args;
  for (const auto& [old, arg] : cases) initial.push_back(old), args.push_back(arg);
  const Run<T> run = run_rmw<Op, T>(v, table_layout(unsigned(cases.size())), initial, args);
  const std::vector<T>& olds = returns_old<Op> ? run.olds : initial;
  EXPECT_TRUE(MatchesTable(erase(initial), erase(args), erase(olds), erase(run.finals), semantics<Op, T>()));
}

// Checks every cell of a contention run with AtomicHistory, or with FoldsTo when the operation returns nothing.
template <class T, class Arg>
::testing::AssertionResult AtomicUnderContention(const Layout& layout, const std::vector<T>& initial,
                                                 const std::vector<Arg>& args, const Run<T>& run, const Semantics& s,
                                                 bool with_olds = true) {
  return EveryCell(layout, erase(initial), erase(args), erase(run.olds), erase(run.finals),
                   [&](const Value& init, const std::vector<Value>& a, const std::vector<Value>& olds,
                       const Value& final_value) {
                     return with_olds ? AtomicHistory(init, a, olds, final_value, s) : FoldsTo(init, a, final_value, s);
                   });
}

// EXPECTs that Op is atomic under contention when every thread passes `arg`: every cell (one per block, or one for
// the grid; see contention_layout) starts at init, and its threads get back f^0(init) .. f^(n-1)(init) in some order.
template <class Op, class T>
void expect_same_history(Variant v, T init, typename Op::template arg_type<T> arg, Contention contention = {}) {
  using Arg = typename Op::template arg_type<T>;
  const Layout layout = contention_layout(v, contention);
  const std::vector<T> initial(layout.cells(), init);
  const std::vector<Arg> same(layout.total(), arg);
  EXPECT_TRUE(AtomicUnderContention(layout, initial, same, run_rmw<Op, T>(v, layout, initial, same),
                                    semantics<Op, T>(), returns_old<Op>));
}

// The argument of every thread: arg_of(i) of its global index i, or arg_of(k, n) of its position k among the n
// threads of its cell.
template <class Arg, class ArgOf>
std::vector<Arg> args_for(const Layout& layout, ArgOf arg_of) {
  std::vector<Arg> args;
  args.reserve(layout.total());
  for (unsigned i = 0; i < layout.total(); ++i) {
    if constexpr (std::is_invocable_v<ArgOf, unsigned, unsigned>) {
      args.push_back(Arg(arg_of(i % layout.group, layout.group)));
    } else {
      args.push_back(Arg(arg_of(i)));
    }
  }
  return args;
}

// EXPECTs that Op is atomic under contention when thread i passes arg_of(i): every cell starts at init and what its
// threads got back is explained by a serial order (Serializable: arg_of must make every serial order revisit-free).
template <class Op, class T, class ArgOf>
void expect_serializable(Variant v, T init, ArgOf arg_of, Contention contention = {}) {
  using Arg = typename Op::template arg_type<T>;
  const Layout layout = contention_layout(v, contention);
  const std::vector<T> initial(layout.cells(), init);
  const std::vector<Arg> varied = args_for<Arg>(layout, arg_of);
  EXPECT_TRUE(AtomicUnderContention(layout, initial, varied, run_rmw<Op, T>(v, layout, initial, varied),
                                    semantics<Op, T>(), returns_old<Op>))
      << "threads passing different arguments";
}

// Both: every thread passing arg_of(0) (expect_same_history), then thread i passing arg_of(i) (expect_serializable).
template <class Op, class T, class ArgOf>
void expect_atomic_under_contention(Variant v, T init, ArgOf arg_of, Contention contention = {}) {
  using Arg = typename Op::template arg_type<T>;
  expect_same_history<Op, T>(v, init, args_for<Arg>(contention_layout(v, contention), arg_of).front(), contention);
  expect_serializable<Op, T>(v, init, arg_of, contention);
}

}  // namespace atomics
