// 5.4.5.2: the order and scope arguments of the built-in atomic functions are the raw enumerators __NV_ATOMIC_* and
// __NV_THREAD_SCOPE_*, as integer literals. For every function, each memory order it accepts (loads: not release
// or acq_rel, 5.4.5.2.10; stores: not consume, acquire or acq_rel, 5.4.5.2.11; compare-exchange: every pair of
// success and failure orders, 5.4.5.2.9 naming no restriction) with each of the five scopes is one block of a launch,
// whose threads contend on one address of global or shared memory; each block's returned values and final value must
// match the host model. The compare-exchange pairs whose failure order is release or acq_rel are rules of their own:
// C++ forbids those failure orders, and a compiler that rejects them (CUCONFORM_NV_CAS_TAKES_RELEASING_FAILURE, probed
// by CMake) skips those rules, the compile-time rule AtomicBuiltins.CompareExchangeTakesReleasingFailureOrders saying
// what it rejected.
// (Thread scope is documented as implemented with block scope, so a block's threads may contend at thread scope.)
// What the orders order is for the memory-model rules; these check that every combination compiles and is atomic.
#include <string>

#include "builtin_ops.h"

namespace atomics {

// An argument with the order(s) and scope to use, coded as combo = (order [* 8 + failure order]) * 8 + scope.
template <class T>
struct Ordered {
  T val;
  int combo;
};

template <class T>
struct Printer<Ordered<T>> {
  static std::string print(const Ordered<T>& a) {
    return show(a.val) + " (combination " + std::to_string(a.combo) + ")";
  }
};

namespace {

#if ATOMICS_HAS_NV_BUILTINS

// clang-format off
#define ATOMICS_EVERY_SCOPE(ORDERS, X)   \
  ORDERS(X, __NV_THREAD_SCOPE_THREAD)    \
  ORDERS(X, __NV_THREAD_SCOPE_BLOCK)     \
  ORDERS(X, __NV_THREAD_SCOPE_CLUSTER)   \
  ORDERS(X, __NV_THREAD_SCOPE_DEVICE)    \
  ORDERS(X, __NV_THREAD_SCOPE_SYSTEM)
#define ATOMICS_RMW_ORDERS(X, s) \
  X(__NV_ATOMIC_RELAXED, s) X(__NV_ATOMIC_CONSUME, s) X(__NV_ATOMIC_ACQUIRE, s) X(__NV_ATOMIC_RELEASE, s) \
  X(__NV_ATOMIC_ACQ_REL, s) X(__NV_ATOMIC_SEQ_CST, s)
#define ATOMICS_LOAD_ORDERS(X, s) \
  X(__NV_ATOMIC_RELAXED, s) X(__NV_ATOMIC_CONSUME, s) X(__NV_ATOMIC_ACQUIRE, s) X(__NV_ATOMIC_SEQ_CST, s)
#define ATOMICS_STORE_ORDERS(X, s) X(__NV_ATOMIC_RELAXED, s) X(__NV_ATOMIC_RELEASE, s) X(__NV_ATOMIC_SEQ_CST, s)
#define ATOMICS_ACQUIRING_FAILURE_ORDERS(X, success, s)                                                          \
  X(success, __NV_ATOMIC_RELAXED, s) X(success, __NV_ATOMIC_CONSUME, s) X(success, __NV_ATOMIC_ACQUIRE, s)     \
  X(success, __NV_ATOMIC_SEQ_CST, s)
#define ATOMICS_RELEASING_FAILURE_ORDERS(X, success, s) \
  X(success, __NV_ATOMIC_RELEASE, s) X(success, __NV_ATOMIC_ACQ_REL, s)
#define ATOMICS_SUCCESS_ORDERS(FAILURE_ORDERS, X, s)                                                             \
  FAILURE_ORDERS(X, __NV_ATOMIC_RELAXED, s) FAILURE_ORDERS(X, __NV_ATOMIC_CONSUME, s)                            \
  FAILURE_ORDERS(X, __NV_ATOMIC_ACQUIRE, s) FAILURE_ORDERS(X, __NV_ATOMIC_RELEASE, s)                            \
  FAILURE_ORDERS(X, __NV_ATOMIC_ACQ_REL, s) FAILURE_ORDERS(X, __NV_ATOMIC_SEQ_CST, s)
#define ATOMICS_ACQUIRING_FAILURE_PAIRS(X, s) ATOMICS_SUCCESS_ORDERS(ATOMICS_ACQUIRING_FAILURE_ORDERS, X, s)
#define ATOMICS_RELEASING_FAILURE_PAIRS(X, s) ATOMICS_SUCCESS_ORDERS(ATOMICS_RELEASING_FAILURE_ORDERS, X, s)
// clang-format on

// The combinations, in the codes the kernels switch on.
#define ATOMICS_COMBO(o, s) o * 8 + s,
#define ATOMICS_PAIR_COMBO(o, f, s) (o * 8 + f) * 8 + s,
const std::vector<int> kRmwCombos = {ATOMICS_EVERY_SCOPE(ATOMICS_RMW_ORDERS, ATOMICS_COMBO)};
const std::vector<int> kLoadCombos = {ATOMICS_EVERY_SCOPE(ATOMICS_LOAD_ORDERS, ATOMICS_COMBO)};
const std::vector<int> kStoreCombos = {ATOMICS_EVERY_SCOPE(ATOMICS_STORE_ORDERS, ATOMICS_COMBO)};
const std::vector<int> kAcquiringFailurePairCombos = {
    ATOMICS_EVERY_SCOPE(ATOMICS_ACQUIRING_FAILURE_PAIRS, ATOMICS_PAIR_COMBO)};
#if CUCONFORM_NV_CAS_TAKES_RELEASING_FAILURE
const std::vector<int> kReleasingFailurePairCombos = {
    ATOMICS_EVERY_SCOPE(ATOMICS_RELEASING_FAILURE_PAIRS, ATOMICS_PAIR_COMBO)};
#endif
#undef ATOMICS_COMBO
#undef ATOMICS_PAIR_COMBO

// An operation that runs `Base` with the order and scope of each thread's combination: CASE(o, s) is one case of
// the switch. Atomic at block scope or wider, whatever the combination, so it runs with block-sized cells.
#define ATOMICS_EVERY_ORDER_OP(Name, Base, ORDERS, CASE)              \
  struct Name {                                                       \
    static constexpr bool returns_old = ::atomics::returns_old<Base>; \
    template <class T>                                                \
    using arg_type = Ordered<T>;                                      \
    template <Scope S, class T>                                       \
    static constexpr bool has = S == Scope::Block;                    \
    template <class T>                                                \
    static constexpr bool on_shared = true;                           \
    template <Scope S, class T>                                       \
    __device__ static T apply(T* address, Ordered<T> arg) {           \
      [[maybe_unused]] T ret{};                                       \
      switch (arg.combo) {                                            \
        ATOMICS_EVERY_SCOPE(ORDERS, CASE)                             \
        default: break;                                               \
      }                                                               \
      return T{};                                                     \
    }                                                                 \
    template <class T>                                                \
    static T model(T old, Ordered<T> arg) {                           \
      return Base::model(old, arg.val);                               \
    }                                                                 \
  }

#define ATOMICS_CASE(builtin, o, s) \
  case o * 8 + s: return builtin(address, arg.val, o, s);
#define ATOMICS_VOID_CASE(builtin, o, s) \
  case o * 8 + s: builtin(address, arg.val, o, s); return T{};

#define ATOMICS_FETCH_ADD_CASE(o, s) ATOMICS_CASE(__nv_atomic_fetch_add, o, s)
#define ATOMICS_ADD_CASE(o, s) ATOMICS_VOID_CASE(__nv_atomic_add, o, s)
#define ATOMICS_FETCH_SUB_CASE(o, s) ATOMICS_CASE(__nv_atomic_fetch_sub, o, s)
#define ATOMICS_SUB_CASE(o, s) ATOMICS_VOID_CASE(__nv_atomic_sub, o, s)
#define ATOMICS_FETCH_AND_CASE(o, s) ATOMICS_CASE(__nv_atomic_fetch_and, o, s)
#define ATOMICS_AND_CASE(o, s) ATOMICS_VOID_CASE(__nv_atomic_and, o, s)
#define ATOMICS_FETCH_OR_CASE(o, s) ATOMICS_CASE(__nv_atomic_fetch_or, o, s)
#define ATOMICS_OR_CASE(o, s) ATOMICS_VOID_CASE(__nv_atomic_or, o, s)
#define ATOMICS_FETCH_XOR_CASE(o, s) ATOMICS_CASE(__nv_atomic_fetch_xor, o, s)
#define ATOMICS_XOR_CASE(o, s) ATOMICS_VOID_CASE(__nv_atomic_xor, o, s)
#define ATOMICS_FETCH_MIN_CASE(o, s) ATOMICS_CASE(__nv_atomic_fetch_min, o, s)
#define ATOMICS_MIN_CASE(o, s) ATOMICS_VOID_CASE(__nv_atomic_min, o, s)
#define ATOMICS_FETCH_MAX_CASE(o, s) ATOMICS_CASE(__nv_atomic_fetch_max, o, s)
#define ATOMICS_MAX_CASE(o, s) ATOMICS_VOID_CASE(__nv_atomic_max, o, s)
#define ATOMICS_EXCHANGE_N_CASE(o, s) ATOMICS_CASE(__nv_atomic_exchange_n, o, s)
#define ATOMICS_EXCHANGE_CASE(o, s) \
  case o * 8 + s: __nv_atomic_exchange(address, &arg.val, &ret, o, s); return ret;
#define ATOMICS_STORE_N_CASE(o, s) ATOMICS_VOID_CASE(__nv_atomic_store_n, o, s)
#define ATOMICS_STORE_CASE(o, s) \
  case o * 8 + s: __nv_atomic_store(address, &arg.val, o, s); return T{};
#define ATOMICS_LOAD_N_CASE(o, s) \
  case o * 8 + s: return __nv_atomic_load_n(address, o, s);
#define ATOMICS_LOAD_CASE(o, s) \
  case o * 8 + s: __nv_atomic_load(address, &ret, o, s); return ret;

ATOMICS_EVERY_ORDER_OP(EveryOrderFetchAdd, NvFetchAdd, ATOMICS_RMW_ORDERS, ATOMICS_FETCH_ADD_CASE);
ATOMICS_EVERY_ORDER_OP(EveryOrderAdd, NvAdd, ATOMICS_RMW_ORDERS, ATOMICS_ADD_CASE);
ATOMICS_EVERY_ORDER_OP(EveryOrderFetchSub, NvFetchSub, ATOMICS_RMW_ORDERS, ATOMICS_FETCH_SUB_CASE);
ATOMICS_EVERY_ORDER_OP(EveryOrderSub, NvSub, ATOMICS_RMW_ORDERS, ATOMICS_SUB_CASE);
ATOMICS_EVERY_ORDER_OP(EveryOrderFetchAnd, NvFetchAnd, ATOMICS_RMW_ORDERS, ATOMICS_FETCH_AND_CASE);
ATOMICS_EVERY_ORDER_OP(EveryOrderAnd, NvAnd, ATOMICS_RMW_ORDERS, ATOMICS_AND_CASE);
ATOMICS_EVERY_ORDER_OP(EveryOrderFetchOr, NvFetchOr, ATOMICS_RMW_ORDERS, ATOMICS_FETCH_OR_CASE);
ATOMICS_EVERY_ORDER_OP(EveryOrderOr, NvOr, ATOMICS_RMW_ORDERS, ATOMICS_OR_CASE);
ATOMICS_EVERY_ORDER_OP(EveryOrderFetchXor, NvFetchXor, ATOMICS_RMW_ORDERS, ATOMICS_FETCH_XOR_CASE);
ATOMICS_EVERY_ORDER_OP(EveryOrderXor, NvXor, ATOMICS_RMW_ORDERS, ATOMICS_XOR_CASE);
ATOMICS_EVERY_ORDER_OP(EveryOrderFetchMin, NvFetchMin, ATOMICS_RMW_ORDERS, ATOMICS_FETCH_MIN_CASE);
ATOMICS_EVERY_ORDER_OP(EveryOrderMin, NvMin, ATOMICS_RMW_ORDERS, ATOMICS_MIN_CASE);
ATOMICS_EVERY_ORDER_OP(EveryOrderFetchMax, NvFetchMax, ATOMICS_RMW_ORDERS, ATOMICS_FETCH_MAX_CASE);
ATOMICS_EVERY_ORDER_OP(EveryOrderMax, NvMax, ATOMICS_RMW_ORDERS, ATOMICS_MAX_CASE);
ATOMICS_EVERY_ORDER_OP(EveryOrderExchangeN, NvExchangeN, ATOMICS_RMW_ORDERS, ATOMICS_EXCHANGE_N_CASE);
ATOMICS_EVERY_ORDER_OP(EveryOrderExchange, NvExchange, ATOMICS_RMW_ORDERS, ATOMICS_EXCHANGE_CASE);
ATOMICS_EVERY_ORDER_OP(EveryOrderLoadN, NvLoad<false>, ATOMICS_LOAD_ORDERS, ATOMICS_LOAD_N_CASE);
ATOMICS_EVERY_ORDER_OP(EveryOrderLoad, NvLoad<true>, ATOMICS_LOAD_ORDERS, ATOMICS_LOAD_CASE);
ATOMICS_EVERY_ORDER_OP(EveryOrderStoreN, NvStore<false>, ATOMICS_STORE_ORDERS, ATOMICS_STORE_N_CASE);
ATOMICS_EVERY_ORDER_OP(EveryOrderStore, NvStore<true>, ATOMICS_STORE_ORDERS, ATOMICS_STORE_CASE);

// Compare-exchange with every pair of success and failure orders, and every scope.
template <bool Pointer>
struct EveryOrderCompareExchange {
  template <class T>
  using arg_type = Ordered<CasArg<T>>;
  template <class T>
  using out_type = CompareExchangeOut<T>;
  template <Scope S, class T>
  static constexpr bool has = S == Scope::Block;
  template <class T>
  static constexpr bool on_shared = true;
  template <Scope S, class T>
  __device__ static CompareExchangeOut<T> apply(T* address, Ordered<CasArg<T>> arg) {
    T expected = arg.val.compare;
    bool succeeded = false;
    switch (arg.combo) {
#define ATOMICS_PAIR_CASE(o, f, s)                                                                 \
  case (o * 8 + f) * 8 + s:                                                                        \
    if constexpr (Pointer) {                                                                       \
      succeeded = __nv_atomic_compare_exchange(address, &expected, &arg.val.val, false, o, f, s);  \
    } else {                                                                                       \
      succeeded = __nv_atomic_compare_exchange_n(address, &expected, arg.val.val, false, o, f, s); \
    }                                                                                              \
    break;
      ATOMICS_EVERY_SCOPE(ATOMICS_ACQUIRING_FAILURE_PAIRS, ATOMICS_PAIR_CASE)
#if CUCONFORM_NV_CAS_TAKES_RELEASING_FAILURE
      ATOMICS_EVERY_SCOPE(ATOMICS_RELEASING_FAILURE_PAIRS, ATOMICS_PAIR_CASE)
#endif
#undef ATOMICS_PAIR_CASE
      default: break;
    }
    return {expected, succeeded};
  }
  template <class T>
  static T model(T old, Ordered<CasArg<T>> arg) {
    return LegacyCas::model(old, arg.val);
  }
  template <class T>
  static CompareExchangeOut<T> out_of(T old, Ordered<CasArg<T>> arg) {
    return {old, Value::of(old) == Value::of(arg.val.compare)};
  }
};

// One block of 128 threads per combination; each block's threads share one address.
Layout block_per_combination(Space space, const std::vector<int>& combos, unsigned group = 128) {
  return contention_layout({space, Scope::Block}, Contention{1, 1, unsigned(combos.size()), 128, 128 / group});
}

// Runs Op from init with every thread of a block passing arg_of(0), then thread i passing arg_of(i), in one launch
// each, and checks every block.
template <class Op, class T, class ArgOf>
void expect_every_combination(Space space, const std::vector<int>& combos, T init, ArgOf arg_of,
                              bool same_only = false) {
  const Layout layout = block_per_combination(space, combos);
  const std::vector<T> initial(layout.cells(), init);
  for (const bool same : {true, false}) {
    if (!same && same_only) break;
    std::vector<Ordered<T>> args;
    for (unsigned i = 0; i < layout.total(); ++i) {
      args.push_back({T(arg_of(same ? 0 : i % layout.threads)), combos[i / layout.threads]});
    }
    EXPECT_TRUE(AtomicUnderContention(layout, initial, args,
                                      run_rmw<Op, T>({space, Scope::Block}, layout, initial, args), semantics<Op, T>(),
                                      returns_old<Op>))
        << (same ? "every thread of a block passing the same argument" : "threads passing different arguments");
  }
}

template <bool Pointer>
void expect_every_compare_exchange_combination(Space space, const std::vector<int>& combos) {
  using Op = EveryOrderCompareExchange<Pointer>;
  using T = unsigned;
  const Layout layout = block_per_combination(space, combos);
  const std::vector<T> initial(layout.cells(), 200u);
  for (const bool same : {true, false}) {
    std::vector<Ordered<CasArg<T>>> args;
    for (unsigned i = 0; i < layout.total(); ++i) {
      const CasArg<T> arg = same ? CasArg<T>{200u, 999u} : step_from<T>(200u, i);
      args.push_back({arg, combos[i / layout.threads]});
    }
    const auto run = run_rmw<Op, T>({space, Scope::Block}, layout, initial, args);
    std::vector<T> olds;
    std::size_t wrong_flags = 0;
    for (std::size_t i = 0; i < run.olds.size(); ++i) {
      olds.push_back(run.olds[i].expected);
      wrong_flags += (run.olds[i].succeeded != 0) != (run.olds[i].expected == args[i].val.compare);
    }
    EXPECT_TRUE(AtomicUnderContention(layout, initial, args, Run<T>{olds, run.finals}, semantics<Op, T>()))
        << (same ? "every thread swapping the initial value" : "threads stepping a counter");
    EXPECT_EQ(wrong_flags, 0u) << "threads whose returned flag disagrees with what *expected came back with";
  }
}

// Loads and stores: stores from one thread per address (concurrent plain stores to shared memory would be races to
// racecheck); loads from every thread of a block.
template <class Op>
void expect_every_store_combination(Space space, const std::vector<int>& combos) {
  const Layout layout = block_per_combination(space, combos, 1);
  const std::vector<unsigned> initial(layout.cells(), 7u);
  std::vector<Ordered<unsigned>> args;
  for (unsigned i = 0; i < layout.total(); ++i) args.push_back({distinct<unsigned>(i), combos[i / layout.threads]});
  const auto run = run_rmw<Op, unsigned>({space, Scope::Block}, layout, initial, args);
  static_assert(!returns_old<Op>);  // what a store returned is not looked at
  EXPECT_TRUE(MatchesTable(erase(initial), erase(args), erase(initial), erase(run.finals), semantics<Op, unsigned>()));
}

#endif  // ATOMICS_HAS_NV_BUILTINS

class NvAtomicEveryOrderAndScope : public RmwTest<Space> {};

#define ATOMICS_RMW_RULE(Name, function, Op, T, init, arg_of)                                                    \
  RULE_P(NvAtomicEveryOrderAndScope, Name, "5.4.5.2",                                                            \
         function " takes each memory order (relaxed, consume, acquire, release, acq_rel, seq_cst) with each "   \
                  "thread scope (thread, block, cluster, device, system) as literals and is atomic with each") { \
    ATOMICS_WITH_NV_BUILTINS(expect_every_combination<Op, T>(GetParam(), kRmwCombos, init, arg_of));             \
  }

// Arguments per thread k of a block of 128.
ATOMICS_RMW_RULE(FetchAdd, "__nv_atomic_fetch_add", EveryOrderFetchAdd, int, -3'000'000, addend<int>)
ATOMICS_RMW_RULE(Add, "__nv_atomic_add", EveryOrderAdd, int, -3'000'000, addend<int>)
ATOMICS_RMW_RULE(FetchSub, "__nv_atomic_fetch_sub", EveryOrderFetchSub, unsigned, 600'000u, addend<unsigned>)
ATOMICS_RMW_RULE(Sub, "__nv_atomic_sub", EveryOrderSub, unsigned, 600'000u, addend<unsigned>)
ATOMICS_RMW_RULE(FetchAnd, "__nv_atomic_fetch_and", EveryOrderFetchAnd, unsigned, low_half<unsigned>,
                 [](unsigned k) { return and_arg<unsigned>(k, 128); })
ATOMICS_RMW_RULE(And, "__nv_atomic_and", EveryOrderAnd, unsigned, low_half<unsigned>,
                 [](unsigned k) { return and_arg<unsigned>(k, 128); })
ATOMICS_RMW_RULE(FetchOr, "__nv_atomic_fetch_or", EveryOrderFetchOr, unsigned, high_half<unsigned>,
                 [](unsigned k) { return or_arg<unsigned>(k, 128); })
ATOMICS_RMW_RULE(Or, "__nv_atomic_or", EveryOrderOr, unsigned, high_half<unsigned>,
                 [](unsigned k) { return or_arg<unsigned>(k, 128); })
ATOMICS_RMW_RULE(FetchXor, "__nv_atomic_fetch_xor", EveryOrderFetchXor, unsigned, 0xdeadbeefu,
                 [](unsigned k) { return xor_arg<unsigned>(k, 128); })
ATOMICS_RMW_RULE(Xor, "__nv_atomic_xor", EveryOrderXor, unsigned, 0xdeadbeefu,
                 [](unsigned k) { return xor_arg<unsigned>(k, 128); })
ATOMICS_RMW_RULE(FetchMin, "__nv_atomic_fetch_min", EveryOrderFetchMin, int, INT_MAX, spread<int>)
ATOMICS_RMW_RULE(Min, "__nv_atomic_min", EveryOrderMin, int, 1000,
                 [](unsigned k) { return min_one_mover<int>(k, 128); })
ATOMICS_RMW_RULE(FetchMax, "__nv_atomic_fetch_max", EveryOrderFetchMax, int, INT_MIN, spread<int>)
ATOMICS_RMW_RULE(Max, "__nv_atomic_max", EveryOrderMax, int, 1000,
                 [](unsigned k) { return max_one_mover<int>(k, 128); })
ATOMICS_RMW_RULE(ExchangeN, "__nv_atomic_exchange_n", EveryOrderExchangeN, unsigned long long, 0ull,
                 distinct<unsigned long long>)
ATOMICS_RMW_RULE(Exchange, "__nv_atomic_exchange", EveryOrderExchange, double, 0.0, distinct<double>)

RULE_P(NvAtomicEveryOrderAndScope, CompareExchangeN, "5.4.5.2.9",
       "__nv_atomic_compare_exchange_n takes each pair of a success order and a failure order relaxed, consume, "
       "acquire or seq_cst with each thread scope as literals and is atomic with each") {
  ATOMICS_WITH_NV_BUILTINS(expect_every_compare_exchange_combination<false>(GetParam(), kAcquiringFailurePairCombos));
}

RULE_P(NvAtomicEveryOrderAndScope, CompareExchange, "5.4.5.2.9",
       "__nv_atomic_compare_exchange takes each pair of a success order and a failure order relaxed, consume, "
       "acquire or seq_cst with each thread scope as literals and is atomic with each") {
  ATOMICS_WITH_NV_BUILTINS(expect_every_compare_exchange_combination<true>(GetParam(), kAcquiringFailurePairCombos));
}

// The body of a rule with failure order release or acq_rel, where the compiler takes them.
#if CUCONFORM_NV_CAS_TAKES_RELEASING_FAILURE || !ATOMICS_HAS_NV_BUILTINS
#define ATOMICS_WITH_RELEASING_FAILURE(...) ATOMICS_WITH_NV_BUILTINS(__VA_ARGS__)
#else
#define ATOMICS_WITH_RELEASING_FAILURE(...)                                                           \
  SKIP_COMPILED_OUT("this compiler rejects failure order release and acq_rel (the compile-time rule " \
                    "AtomicBuiltins.CompareExchangeTakesReleasingFailureOrders says how), so no kernel uses them")
#endif

RULE_P(NvAtomicEveryOrderAndScope, CompareExchangeNReleasingFailure, "5.4.5.2.9",
       "__nv_atomic_compare_exchange_n takes failure order release and acq_rel (the guide names no restriction on "
       "failure_order), with each success order and thread scope as literals, and is atomic with each") {
  ATOMICS_WITH_RELEASING_FAILURE(
      expect_every_compare_exchange_combination<false>(GetParam(), kReleasingFailurePairCombos));
}

RULE_P(NvAtomicEveryOrderAndScope, CompareExchangeReleasingFailure, "5.4.5.2.9",
       "__nv_atomic_compare_exchange takes failure order release and acq_rel (the guide names no restriction on "
       "failure_order), with each success order and thread scope as literals, and is atomic with each") {
  ATOMICS_WITH_RELEASING_FAILURE(
      expect_every_compare_exchange_combination<true>(GetParam(), kReleasingFailurePairCombos));
}

RULE_P(NvAtomicEveryOrderAndScope, LoadN, "5.4.5.2.10",
       "__nv_atomic_load_n takes each memory order it accepts (relaxed, consume, acquire, seq_cst) with each thread "
       "scope as literals") {
  ATOMICS_WITH_NV_BUILTINS(expect_every_combination<EveryOrderLoadN, unsigned>(
      GetParam(), kLoadCombos, 0x12345678u, [](unsigned) { return 0u; }, true));
}

RULE_P(NvAtomicEveryOrderAndScope, Load, "5.4.5.2.10",
       "__nv_atomic_load takes each memory order it accepts (relaxed, consume, acquire, seq_cst) with each thread "
       "scope as literals") {
  ATOMICS_WITH_NV_BUILTINS(expect_every_combination<EveryOrderLoad, unsigned>(
      GetParam(), kLoadCombos, 0x12345678u, [](unsigned) { return 0u; }, true));
}

RULE_P(NvAtomicEveryOrderAndScope, StoreN, "5.4.5.2.11",
       "__nv_atomic_store_n takes each memory order it accepts (relaxed, release, seq_cst) with each thread scope as "
       "literals") {
  ATOMICS_WITH_NV_BUILTINS(expect_every_store_combination<EveryOrderStoreN>(GetParam(), kStoreCombos));
}

RULE_P(NvAtomicEveryOrderAndScope, Store, "5.4.5.2.11",
       "__nv_atomic_store takes each memory order it accepts (relaxed, release, seq_cst) with each thread scope as "
       "literals") {
  ATOMICS_WITH_NV_BUILTINS(expect_every_store_combination<EveryOrderStore>(GetParam(), kStoreCombos));
}

INSTANTIATE_TEST_SUITE_P(Spaces, NvAtomicEveryOrderAndScope, ::testing::Values(Space::Global, Space::Shared),
                         [](const ::testing::TestParamInfo<Space>& info) { return name_of(info.param); });

}  // namespace
}  // namespace atomics
