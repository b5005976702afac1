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
//   static T model(T old, arg_type<T> arg);                                 the value it stores (host model)
#pragma once

#include <cuconform/build_targets.h>
#include <cuconform/cuconform.h>
#include <cuconform/device.h>

#include <optional>
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

// Whether Op says what a thread records for a given old value (Op::out_of), for the simulation; without it, the
// old value itself.
template <class Op, class T, class = void>
inline constexpr bool has_out_of = false;
template <class Op, class T>
inline constexpr bool has_out_of<
    Op, T, std::void_t<decltype(Op::out_of(std::declval<T>(), std::declval<typename Op::template arg_type<T>>()))>> =
    true;

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

// REQUIRE_CC, except under CUCONFORM_ATOMICS_SIMULATE, which needs no device; and a skip when the device code this
// device runs was built for a lower CC (an sm_80 build run on CC 9.0), where the ops compile out what that target
// lacks (ATOMICS_BELOW_SM90).
#define ATOMICS_REQUIRE_CC(major, minor)                       \
  if (::atomics::simulation() == ::atomics::Simulation::Off) { \
    REQUIRE_CC(major, minor);                                  \
    REQUIRE_DEVICE_CODE(major, minor);                         \
  }

// Device code for a target below CC 9.0 has no 128-bit atomic exchange or compare-and-swap and no atomicAdd on
// float2 or float4 (5.4.5.1, 5.4.5.2): the ops compile such calls out there and trap if they are ever reached; the
// rules that use them skip below CC 9.0 and on code built below it (ATOMICS_REQUIRE_CC(9, 0)).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define ATOMICS_BELOW_SM90 1
#else
#define ATOMICS_BELOW_SM90 0
#endif

// Opens an op's apply body: where the condition on T (the arguments) holds in device code below CC 9.0, the body is
// compiled out and a trap stands in its place; use as `ATOMICS_SM90_ONLY(sizeof(T) == 16) { ...the call... }`.
#define ATOMICS_SM90_ONLY(...)                         \
  if constexpr (ATOMICS_BELOW_SM90 && (__VA_ARGS__)) { \
    __trap();                                          \
    return {};                                         \
  } else

// Op, restricted to the given scopes: run_rmw then compiles kernels for those scopes only.
template <class Op, Scope... Scopes>
struct OnlyScopes : Op {
  template <Scope S, class T>
  static constexpr bool has = Op::template has<S, T> && ((S == Scopes) || ...);
};

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

// The kernel that runs Op at scope S on the given space, or nullptr when Op has no such form.
template <class Op, class T, Scope S>
const void* rmw_kernel(Space space) {
  using Arg = typename Op::template arg_type<T>;
  using Out = out_t<Op, T>;
  if constexpr (Op::template has<S, T>) {
    if (space == Space::Global) return reinterpret_cast<const void*>(rmw_on_global<Op, S, T, Arg, Out>);
    if constexpr (Op::template on_shared<T>) return reinterpret_cast<const void*>(rmw_on_shared<Op, S, T, Arg, Out>);
  }
  return nullptr;
}

template <class Op, class T>
const void* rmw_kernel(Variant v) {
  switch (v.scope) {
    case Scope::Thread: return rmw_kernel<Op, T, Scope::Thread>(v.space);
    case Scope::Block: return rmw_kernel<Op, T, Scope::Block>(v.space);
    case Scope::Cluster: return rmw_kernel<Op, T, Scope::Cluster>(v.space);
    case Scope::Device: return rmw_kernel<Op, T, Scope::Device>(v.space);
    case Scope::System: return rmw_kernel<Op, T, Scope::System>(v.space);
  }
  return nullptr;
}

template <class T>
std::vector<T> values_as(const std::vector<Value>& values) {
  std::vector<T> typed;
  typed.reserve(values.size());
  for (const Value& v : values) typed.push_back(v.as<T>());
  return typed;
}

}  // namespace detail

// Runs Op once per thread: thread i works on cell i / layout.group with args[i]. `initial` holds one value per cell.
// (The typed part is only the choice of kernel; launching, or simulating under CUCONFORM_ATOMICS_SIMULATE, is done
// on erased values by run_erased, compiled once in layout.cpp.)
template <class Op, class T>
Run<T, out_t<Op, T>> run_rmw(Variant v, const Layout& layout, const std::vector<T>& initial,
                             const std::vector<typename Op::template arg_type<T>>& args) {
  using Arg = typename Op::template arg_type<T>;
  using Out = out_t<Op, T>;
  ErasedOp op{detail::rmw_kernel<Op, T>(v),
              sizeof(T),
              sizeof(Arg),
              sizeof(Out),
              [](const Value& old, const Value& arg) { return Value::of<T>(Op::model(old.as<T>(), arg.as<Arg>())); },
              nullptr};
  if constexpr (has_out_of<Op, T>) {
    op.out_of = [](const Value& old, const Value& arg) {
      return Value::of<Out>(Op::out_of(old.as<T>(), arg.as<Arg>()));
    };
  }
  if (!op.kernel) throw std::logic_error("this operation has no " + name_of(v) + " form");
  const ErasedRun run = run_erased(op, v.space, layout, erase(initial), erase(args));
  return {detail::values_as<Out>(run.olds), detail::values_as<T>(run.finals)};
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
  return EveryCell(
      layout, erase(initial), erase(args), erase(run.olds), erase(run.finals),
      [&](const Value& init, const std::vector<Value>& a, const std::vector<Value>& olds, const Value& final_value) {
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
  EXPECT_TRUE(AtomicUnderContention(layout, initial, same, run_rmw<Op, T>(v, layout, initial, same), semantics<Op, T>(),
                                    returns_old<Op>));
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
