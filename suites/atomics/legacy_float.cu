// 5.4.5.1.1 atomicAdd() on the floating-point types: float, double, __half, __half2, __nv_bfloat16 (CC 8.x+),
// __nv_bfloat162 (CC 8.x+), float2 and float4 (CC 9.x+, global memory only). Sums are chosen to be exactly
// representable in every order, so the returned values and the final value are exact; vector types are checked
// component by component (5.4.5.1: each component is atomic on its own, the vector as a whole need not be).
// PG12.9 20.3: single-precision atomic adds flush subnormals on global memory and keep them on shared memory.
#include <cfloat>
#include <cmath>

#include "legacy_ops.h"

namespace atomics {
namespace {

// Runs Op with every thread passing arg_of(0), then with thread i passing arg_of(i), and checks each component of
// the vector type V on its own (AtomicHistory of a scalar add).
template <class Op, class V, class ArgOf>
void expect_atomic_per_component(Variant v, V init, ArgOf arg_of, Contention contention) {
  using S = typename Components<V>::Scalar;
  const Layout layout = contention_layout(v, contention);
  const std::vector<V> initial(layout.cells(), init);
  const Semantics scalar_add = semantics_of<S, S>([](const S& a, const S& b) { return add(a, b); });
  for (const bool same : {true, false}) {
    std::vector<V> args = args_for<V>(layout, arg_of);
    if (same) args.assign(args.size(), args.front());
    const Run<V> run = run_rmw<Op, V>(v, layout, initial, args);
    for (int k = 0; k < Components<V>::count; ++k) {
      const auto component = [k](const std::vector<V>& values) {
        std::vector<Value> parts;
        for (const V& value : values) parts.push_back(Value::of(Components<V>::get(value, k)));
        return parts;
      };
      EXPECT_TRUE(EveryCell(layout, component(initial), component(args), component(run.olds), component(run.finals),
                            [&](const Value& i, const std::vector<Value>& a, const std::vector<Value>& o,
                                const Value& f) { return AtomicHistory(i, a, o, f, scalar_add); }))
          << "component " << k
          << (same ? ", every thread passing the same value" : ", threads passing different values");
    }
  }
}

// Small integers and halves, exact in every 16-bit float type while the sums stay small: 1 or 2, and 0.5 or 1.
double one_or_two(unsigned i) { return 1 + mix(i) % 2; }
double half_or_one(unsigned i) { return 0.5 * (1 + mix(i) % 2); }

class AtomicAddFloat : public RmwTest<Variant> {};
class AtomicAddDouble : public RmwTest<Variant> {};
class AtomicAddHalf : public RmwTest<Variant> {};
class AtomicAddHalf2 : public RmwTest<Variant> {};
class AtomicAddBfloat16 : public RmwTest<Variant> {};
class AtomicAddBfloat162 : public RmwTest<Variant> {};
class AtomicAddFloat2 : public RmwTest<Variant> {};
class AtomicAddFloat4 : public RmwTest<Variant> {};

RULE_P(AtomicAddFloat, StoresSumReturnsOld, "5.4.5.1.1", "atomicAdd(float*, float) stores old + val and returns old") {
  expect_table<LegacyAdd, float>(GetParam(), {{1.5f, 2.25f},
                                              {-1.0f, 1.0f},   // +0
                                              {-0.0f, -0.0f},  // -0
                                              {0.0f, -0.0f},   // +0
                                              {1e30f, 1e30f},
                                              {FLT_MAX, -FLT_MAX},
                                              {INFINITY, 1.0f},
                                              {-INFINITY, -1e30f},
                                              {3.0f, -0.5f},
                                              {16777216.0f, 2.0f}});
}

RULE_P(AtomicAddFloat, IsAtomicUnderContention, "5.4.5.1.1",
       "atomicAdd(float*, float) reads old, adds val and stores the sum in one atomic transaction") {
  // Multiples of 0.25 summing to less than 2^20: exact in every order.
  expect_atomic_under_contention<LegacyAdd, float>(
      GetParam(), 0.0f, [](unsigned i) { return 0.25f * float(1 << (mix(i) % 5)); }, Contention{}.scaled_for_profile());
}

RULE_P(AtomicAddDouble, StoresSumReturnsOld, "5.4.5.1.1",
       "atomicAdd(double*, double) stores old + val and returns old") {
  expect_table<LegacyAdd, double>(GetParam(), {{1.5, 2.25},
                                               {-1.0, 1.0},
                                               {-0.0, -0.0},
                                               {1e300, 1e300},
                                               {DBL_MAX, -DBL_MAX},
                                               {INFINITY, 1.0},
                                               {9007199254740992.0, 2.0},
                                               {0x1p-1022, -0x1p-1023}});  // a subnormal sum
}

RULE_P(AtomicAddDouble, IsAtomicUnderContention, "5.4.5.1.1",
       "atomicAdd(double*, double) reads old, adds val and stores the sum in one atomic transaction") {
  // Multiples of 1/8 up to 2^20 each, from 2^40: exact in every order.
  expect_atomic_under_contention<LegacyAdd, double>(
      GetParam(), 0x1p40, [](unsigned i) { return 0.125 * double(1 + mix(i) % (1 << 23)); },
      Contention{}.scaled_for_profile());
}

RULE_P(AtomicAddHalf, StoresSumReturnsOld, "5.4.5.1.1", "atomicAdd(__half*, __half) stores old + val and returns old") {
  expect_table<LegacyAdd, __half>(GetParam(), {{half_of(1), half_of(2)},
                                               {half_of(0.5), half_of(0.25)},
                                               {half_of(-2), half_of(2)},
                                               {half_of(-1.5), half_of(0.25)},
                                               {half_of(1024), half_of(1024)},
                                               {half_of(-0.0), half_of(-0.0)},
                                               {half_of(65504), half_of(-65504)},
                                               {half_of(0x1p-14), half_of(-0x1p-15)}});  // a subnormal sum
}

RULE_P(AtomicAddHalf, IsAtomicUnderContention, "5.4.5.1.1",
       "atomicAdd(__half*, __half) reads old, adds val and stores the sum in one atomic transaction") {
  // At most 800 adds of 1 or 2: integers up to 1600, exact in __half (up to 2048).
  expect_atomic_under_contention<LegacyAdd, __half>(
      GetParam(), half_of(0), [](unsigned i) { return half_of(one_or_two(i)); }, Contention{8, 100, 4, 500});
}

RULE_P(AtomicAddHalf2, AddsEachComponentReturnsOld, "5.4.5.1.1",
       "atomicAdd(__half2*, __half2) stores old + val in each component and returns old") {
  const auto h2 = [](double x, double y) { return __half2(half_of(x), half_of(y)); };
  expect_table<LegacyAdd, __half2>(GetParam(), {{h2(1, 2), h2(2, 1)},
                                                {h2(0.5, -0.5), h2(0.25, 0.25)},
                                                {h2(-2, 1024), h2(2, 1024)},
                                                {h2(-0.0, 0), h2(-0.0, -0.0)}});
}

RULE_P(AtomicAddHalf2, IsAtomicPerComponentUnderContention, "5.4.5.1.1",
       "atomicAdd(__half2*, __half2) is atomic for each of the two components on its own") {
  expect_atomic_per_component<LegacyAdd, __half2>(
      GetParam(), __half2(half_of(0), half_of(100)),
      [](unsigned i) { return __half2(half_of(one_or_two(i)), half_of(half_or_one(i + 1))); },
      Contention{8, 100, 4, 500});
}

RULE_P(
    AtomicAddBfloat16, StoresSumReturnsOld, "5.4.5.1.1",
    "atomicAdd(__nv_bfloat16*, __nv_bfloat16) stores old + val and returns old (compute capability 8.x and higher)") {
  ATOMICS_REQUIRE_CC(8, 0);
  const auto b = bfloat16_of;
  expect_table<LegacyAdd, __nv_bfloat16>(
      GetParam(),
      {{b(1), b(2)}, {b(0.5), b(0.25)}, {b(-2), b(2)}, {b(128), b(128)}, {b(1e30), b(1e30)}, {b(-0.0), b(-0.0)}});
}

RULE_P(AtomicAddBfloat16, IsAtomicUnderContention, "5.4.5.1.1",
       "atomicAdd(__nv_bfloat16*, __nv_bfloat16) reads old, adds val and stores the sum in one atomic transaction") {
  ATOMICS_REQUIRE_CC(8, 0);
  // At most 123 adds of 1 or 2: integers up to 246, exact in __nv_bfloat16 (up to 256).
  expect_atomic_under_contention<LegacyAdd, __nv_bfloat16>(
      GetParam(), bfloat16_of(0), [](unsigned i) { return bfloat16_of(one_or_two(i)); }, Contention{3, 41, 2, 123});
}

RULE_P(AtomicAddBfloat162, AddsEachComponentReturnsOld, "5.4.5.1.1",
       "atomicAdd(__nv_bfloat162*, __nv_bfloat162) stores old + val in each component and returns old (compute "
       "capability 8.x and higher)") {
  ATOMICS_REQUIRE_CC(8, 0);
  const auto b2 = [](double x, double y) { return __nv_bfloat162(bfloat16_of(x), bfloat16_of(y)); };
  expect_table<LegacyAdd, __nv_bfloat162>(GetParam(), {{b2(1, 2), b2(2, 1)},
                                                       {b2(0.5, -0.5), b2(0.25, 0.25)},
                                                       {b2(-2, 128), b2(2, 128)},
                                                       {b2(-0.0, 0), b2(-0.0, -0.0)}});
}

RULE_P(AtomicAddBfloat162, IsAtomicPerComponentUnderContention, "5.4.5.1.1",
       "atomicAdd(__nv_bfloat162*, __nv_bfloat162) is atomic for each of the two components on its own (compute "
       "capability 8.x and higher)") {
  ATOMICS_REQUIRE_CC(8, 0);
  expect_atomic_per_component<LegacyAdd, __nv_bfloat162>(
      GetParam(), __nv_bfloat162(bfloat16_of(0), bfloat16_of(-64)),
      [](unsigned i) { return __nv_bfloat162(bfloat16_of(one_or_two(i)), bfloat16_of(half_or_one(i + 1))); },
      Contention{3, 41, 2, 123});
}

RULE_P(AtomicAddFloat2, AddsEachComponentReturnsOld, "5.4.5.1.1",
       "atomicAdd(float2*, float2) stores old + val in each component and returns old (compute capability 9.x and "
       "higher, global memory)") {
  ATOMICS_REQUIRE_CC(9, 0);
  expect_table<LegacyAdd, float2>(GetParam(), {{make_float2(1.5f, -1.0f), make_float2(2.25f, 1.0f)},
                                               {make_float2(-0.0f, 1e30f), make_float2(-0.0f, 1e30f)},
                                               {make_float2(INFINITY, 3.0f), make_float2(1.0f, -0.5f)}});
}

RULE_P(AtomicAddFloat2, IsAtomicPerComponentUnderContention, "5.4.5.1.1",
       "atomicAdd(float2*, float2) is atomic for each of the two components on its own (compute capability 9.x and "
       "higher, global memory)") {
  ATOMICS_REQUIRE_CC(9, 0);
  expect_atomic_per_component<LegacyAdd, float2>(
      GetParam(), make_float2(0.0f, 1e6f),
      [](unsigned i) { return make_float2(float(1 + mix(i) % 4), -0.25f * float(1 + mix(i + 1) % 4)); },
      Contention{}.scaled_for_profile());
}

RULE_P(AtomicAddFloat4, AddsEachComponentReturnsOld, "5.4.5.1.1",
       "atomicAdd(float4*, float4) stores old + val in each component and returns old (compute capability 9.x and "
       "higher, global memory)") {
  ATOMICS_REQUIRE_CC(9, 0);
  expect_table<LegacyAdd, float4>(GetParam(),
                                  {{make_float4(1.5f, -1.0f, 0.0f, 7.0f), make_float4(2.25f, 1.0f, -0.0f, -8.0f)},
                                   {make_float4(-0.0f, 1e30f, INFINITY, 1.0f), make_float4(-0.0f, 1e30f, 5.0f, 0.5f)}});
}

RULE_P(AtomicAddFloat4, IsAtomicPerComponentUnderContention, "5.4.5.1.1",
       "atomicAdd(float4*, float4) is atomic for each of the four components on its own (compute capability 9.x and "
       "higher, global memory)") {
  ATOMICS_REQUIRE_CC(9, 0);
  expect_atomic_per_component<LegacyAdd, float4>(
      GetParam(), make_float4(0.0f, 1e6f, -1e6f, 0.5f),
      [](unsigned i) {
        return make_float4(float(1 + mix(i) % 4), -0.25f * float(1 + mix(i + 1) % 4), 0.5f * float(1 + mix(i + 2) % 8),
                           float(1 << (mix(i + 3) % 4)));
      },
      Contention{}.scaled_for_profile());
}

// atomicAdd with its result thrown away: only the stored sums remain to check (FoldsTo).
struct AddDiscardingResult {
  template <class T>
  using arg_type = T;
  template <Scope S, class T>
  static constexpr bool has = LegacyAdd::has<S, T>;
  template <class T>
  static constexpr bool on_shared = LegacyAdd::on_shared<T>;
  template <Scope S, class T>
  __device__ static T apply(T* address, T val) {
    LegacyAdd::apply<S, T>(address, val);
    return T{};
  }
  template <class T>
  static T model(T old, T val) {
    return add(old, val);
  }
};

template <class V>
void expect_sums_with_results_unused(Variant v, V init, V val) {
  const Layout layout = contention_layout(v, Contention{});
  const std::vector<V> initial(layout.cells(), init);
  const std::vector<V> args(layout.total(), val);
  const Run<V> run = run_rmw<AddDiscardingResult, V>(v, layout, initial, args);
  EXPECT_TRUE(EveryCell(layout, erase(initial), erase(args), erase(run.olds), erase(run.finals),
                        [s = semantics<AddDiscardingResult, V>()](const Value& i, const std::vector<Value>& a,
                                                                  const std::vector<Value>&,
                                                                  const Value& f) { return FoldsTo(i, a, f, s); }));
}

RULE_P(AtomicAddFloat2, StoresSumWhenResultIsUnused, "5.4.5.1.1",
       "atomicAdd(float2*, float2) stores old + val even when the old value it returns is not used") {
  ATOMICS_REQUIRE_CC(9, 0);
  expect_sums_with_results_unused(GetParam(), make_float2(0.0f, 100.0f), make_float2(1.0f, -0.5f));
}

RULE_P(AtomicAddFloat4, StoresSumWhenResultIsUnused, "5.4.5.1.1",
       "atomicAdd(float4*, float4) stores old + val even when the old value it returns is not used") {
  ATOMICS_REQUIRE_CC(9, 0);
  expect_sums_with_results_unused(GetParam(), make_float4(0.0f, 100.0f, -3.0f, 1.0f),
                                  make_float4(1.0f, -0.5f, 0.25f, 2.0f));
}

INSTANTIATE_TEST_SUITE_P(Variants, AtomicAddFloat, ::testing::ValuesIn(legacy_variants<float>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicAddDouble, ::testing::ValuesIn(legacy_variants<double>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicAddHalf, ::testing::ValuesIn(legacy_variants<__half>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicAddHalf2, ::testing::ValuesIn(legacy_variants<__half2>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicAddBfloat16, ::testing::ValuesIn(legacy_variants<__nv_bfloat16>()),
                         variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicAddBfloat162, ::testing::ValuesIn(legacy_variants<__nv_bfloat162>()),
                         variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicAddFloat2, ::testing::ValuesIn(legacy_variants<float2>(false)), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicAddFloat4, ::testing::ValuesIn(legacy_variants<float4>(false)), variant_name);

}  // namespace
}  // namespace atomics
