// 5.4.8.1 Address Space Predicate Functions: __isGlobal, __isShared, __isConstant, __isGridConstant and __isLocal
// return 1 when the pointer holds the generic address of an object in their space and 0 otherwise. Each predicate is
// applied to a pointer into every space (through an opaque move, so that it is evaluated at run time) and its whole
// column of results is compared with the documented one.
#include <cuconform/cuconform.h>

#include <string>
#include <vector>

#include "device_timer.h"

// clang declares __isGridConstant but its device library has no definition (ptxas: unresolved
// __nv_isGridConstant_impl).
#define CUCONFORM_HAS_IS_GRID_CONSTANT (!CUCONFORM_CLANG_CUDA)

namespace {

using cuconform_functions::opaque;

enum Space : int {
  kGlobalAllocation,   // cudaMalloc
  kGlobalVariable,     // __device__
  kManagedAllocation,  // cudaMallocManaged
  kStaticShared,
  kDynamicShared,
  kConstantVariable,
  kLocalVariable,
  kGridConstantParameter,
  kSpaceCount
};
const char* const kSpaceNames[] = {
    "cudaMalloc allocation",   "__device__ variable",        "cudaMallocManaged allocation",
    "static __shared__ array", "dynamic __shared__ array",   "__constant__ variable",
    "local variable",          "__grid_constant__ parameter"};

enum Predicate : int { kIsGlobal, kIsShared, kIsConstant, kIsGridConstant, kIsLocal, kPredicateCount };

constexpr unsigned kNotCompiled = 0xDEAD;

__device__ int global_variable;
__constant__ int constant_variable = 7;

struct Parameter {
  int values[4];
};

__device__ unsigned evaluate(Predicate predicate, const void* p) {
  switch (predicate) {
    case kIsGlobal: return __isGlobal(p);
    case kIsShared: return __isShared(p);
    case kIsConstant: return __isConstant(p);
    case kIsGridConstant:
#if CUCONFORM_HAS_IS_GRID_CONSTANT
      return __isGridConstant(p);
#else
      return kNotCompiled;
#endif
    case kIsLocal: return __isLocal(p);
    default: return kNotCompiled;
  }
}

// results[space * kPredicateCount + predicate]
__global__ void classify(__grid_constant__ const Parameter parameter, const int* global_allocation,
                         const int* managed_allocation, unsigned* results) {
  __shared__ int static_shared[4];
  extern __shared__ int dynamic_shared[];
  int local_variable[4];  // its address escapes into inline assembly: it lives in local memory
  const void* pointers[kSpaceCount] = {global_allocation, &global_variable,   managed_allocation, static_shared,
                                       dynamic_shared,    &constant_variable, local_variable,     &parameter};
  for (int space = 0; space < kSpaceCount; ++space) {
    for (int predicate = 0; predicate < kPredicateCount; ++predicate) {
      results[space * kPredicateCount + predicate] =
          evaluate(static_cast<Predicate>(predicate), opaque(pointers[space]));
    }
  }
}

class AddressSpacePredicate : public cuconform::GpuTest {
 protected:
  void SetUp() override {
    cuconform::GpuTest::SetUp();
    if (IsSkipped()) return;
    REQUIRE_ATTRIBUTE(cudaDevAttrManagedMemory, "managed memory");
  }

  // The predicate's result for a pointer into every space.
  std::vector<unsigned> column(Predicate predicate) {
    cuconform::DeviceBuffer<int> global_allocation(4);
    int* managed = nullptr;
    CUDA_CHECK(cudaMallocManaged(&managed, 4 * sizeof(int)));
    cuconform::DeviceBuffer<unsigned> results(kSpaceCount * kPredicateCount);
    try {
      cuconform::launch(classify, cuconform::Shape{1, 1, 4 * sizeof(int)}, Parameter{{1, 2, 3, 4}},
                        global_allocation.get(), managed, results.get());
    } catch (...) {
      cudaFree(managed);
      throw;
    }
    CUDA_CHECK(cudaFree(managed));
    const std::vector<unsigned> all = results.to_host();
    std::vector<unsigned> of_predicate(kSpaceCount);
    for (int space = 0; space < kSpaceCount; ++space) of_predicate[space] = all[space * kPredicateCount + predicate];
    return of_predicate;
  }

  // Checks the predicate's result for every space: 1 for `members`, 0 for the others, except the spaces whose
  // result the guide leaves open (only recorded).
  void expect_exactly(Predicate predicate, std::vector<Space> members, std::vector<Space> unspecified = {}) {
    const std::vector<unsigned> got = column(predicate);
    for (int space = 0; space < kSpaceCount; ++space) {
      auto in = [&](const std::vector<Space>& set) {
        for (Space s : set)
          if (s == space) return true;
        return false;
      };
      if (in(unspecified)) {
        cuconform::record_metric(std::string("unspecified: ") + kSpaceNames[space], static_cast<long long>(got[space]));
        continue;
      }
      const unsigned expected = in(members) ? 1u : 0u;
      EXPECT_EQ(got[space], expected) << "pointer to a " << kSpaceNames[space];
    }
  }
};

RULE_F(AddressSpacePredicate, IsGlobalIsOneExactlyForGlobalMemory, "5.4.8.1",
       "__isGlobal returns 1 for the generic address of an object in global memory and 0 otherwise") {
  expect_exactly(kIsGlobal, {kGlobalAllocation, kGlobalVariable, kManagedAllocation}, {kGridConstantParameter});
}

RULE_F(AddressSpacePredicate, IsSharedIsOneExactlyForSharedMemory, "5.4.8.1",
       "__isShared returns 1 for the generic address of an object in shared memory and 0 otherwise") {
  expect_exactly(kIsShared, {kStaticShared, kDynamicShared});
}

RULE_F(AddressSpacePredicate, IsConstantIsOneExactlyForConstantMemory, "5.4.8.1",
       "__isConstant returns 1 for the generic address of an object in constant memory and 0 otherwise") {
  expect_exactly(kIsConstant, {kConstantVariable}, {kGridConstantParameter});
}

RULE_F(AddressSpacePredicate, IsGridConstantIsOneExactlyForGridConstantParameters, "5.4.8.1",
       "__isGridConstant returns 1 for the address of a __grid_constant__ kernel parameter and 0 otherwise") {
#if CUCONFORM_HAS_IS_GRID_CONSTANT
  expect_exactly(kIsGridConstant, {kGridConstantParameter});
#else
  SKIP_COMPILED_OUT("clang's device library has no __isGridConstant (__nv_isGridConstant_impl)");
#endif
}

RULE_F(AddressSpacePredicate, IsLocalIsOneExactlyForLocalMemory, "5.4.8.1",
       "__isLocal returns 1 for the generic address of an object in local memory and 0 otherwise") {
  expect_exactly(kIsLocal, {kLocalVariable});
}

}  // namespace
