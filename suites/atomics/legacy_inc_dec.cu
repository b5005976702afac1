// 5.4.5.1.3 atomicInc() and 5.4.5.1.4 atomicDec(): the wrap-around formulas at their edges (bound 0, bound UINT_MAX,
// old above the bound, old 0 for atomicDec) on independent addresses, and under contention, where every thread
// passing the same bound makes the returned values, as a multiset, exactly the host model's sequence.
#include <climits>

#include "legacy_ops.h"

namespace atomics {
namespace {

class AtomicInc : public RmwTest<Variant> {};
class AtomicDec : public RmwTest<Variant> {};

// Every thread passes the same bound; the address starts at init.
struct Scenario {
  const char* name;
  unsigned init;
  unsigned bound;
};

RULE_P(AtomicInc, StoresIncrementOrZeroReturnsOld, "5.4.5.1.3",
       "atomicInc(address, val) stores (old >= val ? 0 : old + 1) and returns old") {
  expect_table<LegacyInc, unsigned>(GetParam(), {{0u, 0u},  // bound 0: always 0
                                                 {5u, 0u},
                                                 {0u, 1u},
                                                 {1u, 1u},  // old == bound
                                                 {2u, 1u},  // old above the bound
                                                 {9u, 10u},
                                                 {10u, 10u},
                                                 {11u, 10u},
                                                 {UINT_MAX, 5u},
                                                 {0u, UINT_MAX},  // bound UINT_MAX: plain increment ...
                                                 {UINT_MAX - 1, UINT_MAX},
                                                 {UINT_MAX, UINT_MAX}});  // ... that wraps to 0
}

RULE_P(AtomicInc, IsAtomicUnderContention, "5.4.5.1.3",
       "atomicInc reads old, computes (old >= val ? 0 : old + 1) and stores it in one atomic transaction") {
  for (const Scenario& s :
       {Scenario{"wrapping at bound 99, from 0", 0u, 99u}, Scenario{"from 5000, above bound 99", 5000u, 99u},
        Scenario{"bound UINT_MAX, through UINT_MAX to 0", UINT_MAX - 6000u, UINT_MAX},
        Scenario{"bound 0, from 7", 7u, 0u}}) {
    SCOPED_TRACE(s.name);
    expect_same_history<LegacyInc, unsigned>(GetParam(), s.init, s.bound, Contention{}.scaled_for_profile());
  }
}

RULE_P(AtomicDec, StoresDecrementOrBoundReturnsOld, "5.4.5.1.4",
       "atomicDec(address, val) stores ((old == 0 || old > val) ? val : old - 1) and returns old") {
  expect_table<LegacyDec, unsigned>(GetParam(), {{0u, 0u},  // bound 0: always 0
                                                 {7u, 0u},
                                                 {0u, 5u},  // old 0: the bound
                                                 {1u, 5u},
                                                 {5u, 5u},  // old == bound
                                                 {6u, 5u},  // old above the bound
                                                 {UINT_MAX, 5u},
                                                 {1u, 1u},
                                                 {2u, 1u},
                                                 {0u, UINT_MAX},        // bound UINT_MAX: wraps to UINT_MAX ...
                                                 {UINT_MAX, UINT_MAX},  // ... and decrements from there
                                                 {1u, UINT_MAX}});
}

RULE_P(AtomicDec, IsAtomicUnderContention, "5.4.5.1.4",
       "atomicDec reads old, computes ((old == 0 || old > val) ? val : old - 1) and stores it in one atomic "
       "transaction") {
  for (const Scenario& s :
       {Scenario{"wrapping at bound 99, from 5", 5u, 99u}, Scenario{"from 5000, above bound 99", 5000u, 99u},
        Scenario{"bound UINT_MAX, through 0 to UINT_MAX", 3000u, UINT_MAX}, Scenario{"bound 0, from 7", 7u, 0u}}) {
    SCOPED_TRACE(s.name);
    expect_same_history<LegacyDec, unsigned>(GetParam(), s.init, s.bound, Contention{}.scaled_for_profile());
  }
}

INSTANTIATE_TEST_SUITE_P(Variants, AtomicInc, ::testing::ValuesIn(legacy_variants<unsigned>()), variant_name);
INSTANTIATE_TEST_SUITE_P(Variants, AtomicDec, ::testing::ValuesIn(legacy_variants<unsigned>()), variant_name);

}  // namespace
}  // namespace atomics
