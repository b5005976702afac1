// 5.4.8.2 Address Space Conversion Functions: __cvta_generic_to_{global,shared,constant,local} give the address of an
// object in its own space, which PTX instructions of that space accept (the guide's ld.shared example), and
// __cvta_{global,shared,constant,local}_to_generic turn it back into the same generic pointer. The shared, local and
// constant addresses fit in 32 bits: truncated and zero-extended, they still convert back to the same pointer.
#include <cuconform/cuconform.h>

#include <cstdint>
#include <vector>

#include "device_timer.h"

namespace {

using cuconform_functions::opaque;

enum Space : int { kGlobal, kShared, kConstant, kLocal, kSpaceCount };

// What the conversions of one space did to a pointer p to an int holding kExpected[space]: raw values, which the
// host compares.
struct Conversion {
  int loaded;                            // ld.<space> through __cvta_generic_to_<space>(p)
  unsigned long long generic;            // p
  unsigned long long in_space;           // __cvta_generic_to_<space>(p)
  unsigned long long round_trip;         // __cvta_<space>_to_generic(__cvta_generic_to_<space>(p))
  unsigned long long round_trip_32_bit;  // __cvta_<space>_to_generic(zero-extended 32-bit truncation)
};

// The value each space's object holds.
constexpr int kGlobalValue = 1234, kSharedValue = 42, kConstantValue = 2025, kLocalValue = 99;
constexpr int kExpected[kSpaceCount] = {kGlobalValue, kSharedValue, kConstantValue, kLocalValue};

__device__ int global_value = kGlobalValue;
__constant__ int constant_value = kConstantValue;

__device__ size_t to_space(Space space, const void* p) {
  switch (space) {
    case kGlobal: return __cvta_generic_to_global(p);
    case kShared: return __cvta_generic_to_shared(p);
    case kConstant: return __cvta_generic_to_constant(p);
    default: return __cvta_generic_to_local(p);
  }
}

__device__ void* to_generic(Space space, size_t raw) {
  switch (space) {
    case kGlobal: return __cvta_global_to_generic(raw);
    case kShared: return __cvta_shared_to_generic(raw);
    case kConstant: return __cvta_constant_to_generic(raw);
    default: return __cvta_local_to_generic(raw);
  }
}

__device__ int load_in_space(Space space, size_t raw) {
  int value;
  switch (space) {
    case kGlobal: asm volatile("ld.global.s32 %0, [%1];" : "=r"(value) : "l"(raw) : "memory"); break;
    case kShared: asm volatile("ld.shared.s32 %0, [%1];" : "=r"(value) : "l"(raw) : "memory"); break;
    case kConstant: asm volatile("ld.const.s32 %0, [%1];" : "=r"(value) : "l"(raw) : "memory"); break;
    default: asm volatile("ld.local.s32 %0, [%1];" : "=r"(value) : "l"(raw) : "memory"); break;
  }
  return value;
}

__global__ void convert_each_space(Conversion* results) {
  __shared__ int shared_value;
  int local_value[2];  // its address escapes into inline assembly: it lives in local memory
  shared_value = kSharedValue;
  local_value[threadIdx.x & 1] = kLocalValue;
  const int* objects[kSpaceCount] = {&global_value, &shared_value, &constant_value, &local_value[0]};
  for (int s = 0; s < kSpaceCount; ++s) {
    const Space space = static_cast<Space>(s);
    const void* p = opaque(objects[s]);
    const size_t raw = to_space(space, p);
    const size_t raw_32 = static_cast<size_t>(static_cast<uint32_t>(raw));  // the guide's recipe
    results[s].loaded = load_in_space(space, raw);
    results[s].generic = reinterpret_cast<unsigned long long>(p);
    results[s].in_space = raw;
    results[s].round_trip = reinterpret_cast<unsigned long long>(to_generic(space, raw));
    results[s].round_trip_32_bit = reinterpret_cast<unsigned long long>(to_generic(space, raw_32));
  }
}

// A plain int* reaches an int wherever it lives (the paragraph that opens 5.4.8.2).
__device__ __noinline__ int read_through(const int* p) { return *p; }
__device__ __noinline__ void write_through(int* p, int value) { *p = value; }

// results[0..3]: global, shared, constant, local read through a generic int*; [4..6]: global, shared, local written
// through one and read back directly.
__global__ void access_through_generic_pointers(int* global_object, int* results) {
  __shared__ int shared_object;
  int local_object[2];  // its address escapes: it lives in local memory
  shared_object = kSharedValue;
  local_object[threadIdx.x & 1] = kLocalValue;
  *global_object = kGlobalValue;
  results[0] = read_through(opaque(global_object));
  results[1] = read_through(opaque(&shared_object));
  results[2] = read_through(opaque(&constant_value));
  results[3] = read_through(opaque(&local_object[0]));
  write_through(opaque(global_object), -1);
  write_through(opaque(&shared_object), -2);
  write_through(opaque(&local_object[0]), -3);
  results[4] = *global_object;
  results[5] = shared_object;
  results[6] = local_object[threadIdx.x & 1];
}

class GenericPointer : public cuconform::GpuTest {};

RULE_F(GenericPointer, AccessesObjectsInEverySpace, "5.4.8.2",
       "a generic T* accesses objects regardless of where they are stored: an int* reads ints in global, shared, "
       "constant and local memory and writes those in global, shared and local memory") {
  cuconform::DeviceBuffer<int> global_object(1), results(7);
  cuconform::launch(access_through_generic_pointers, 1, 1, global_object.get(), results.get());
  EXPECT_TRUE(cuconform::ElementsEqual(
      results.to_host(), std::vector<int>{kGlobalValue, kSharedValue, kConstantValue, kLocalValue, -1, -2, -3}));
}

class AddressSpaceConversion : public cuconform::GpuTest {
 protected:
  Conversion run(Space space) {
    cuconform::DeviceBuffer<Conversion> results(kSpaceCount);
    cuconform::launch(convert_each_space, 1, 1, results.get());
    return results.value_at(space);
  }
};

RULE_F(AddressSpaceConversion, GenericToGlobalAddressServesLdGlobal, "5.4.8.2",
       "__cvta_generic_to_global gives the global-space address that PTX ld.global reads the object from") {
  EXPECT_EQ(run(kGlobal).loaded, kExpected[kGlobal]);
}

RULE_F(AddressSpaceConversion, GenericToSharedAddressServesLdShared, "5.4.8.2",
       "__cvta_generic_to_shared gives the shared-space address that PTX ld.shared reads the object from") {
  EXPECT_EQ(run(kShared).loaded, kExpected[kShared]);
}

RULE_F(AddressSpaceConversion, GenericToConstantAddressServesLdConst, "5.4.8.2",
       "__cvta_generic_to_constant gives the constant-space address that PTX ld.const reads the object from") {
  EXPECT_EQ(run(kConstant).loaded, kExpected[kConstant]);
}

RULE_F(AddressSpaceConversion, GenericToLocalAddressServesLdLocal, "5.4.8.2",
       "__cvta_generic_to_local gives the local-space address that PTX ld.local reads the object from") {
  EXPECT_EQ(run(kLocal).loaded, kExpected[kLocal]);
}

RULE_F(AddressSpaceConversion, GlobalToGenericInvertsGenericToGlobal, "5.4.8.2",
       "__cvta_global_to_generic(__cvta_generic_to_global(p)) == p for a pointer to global memory") {
  const Conversion c = run(kGlobal);
  EXPECT_EQ(c.round_trip, c.generic) << "p";
}

RULE_F(AddressSpaceConversion, SharedToGenericInvertsGenericToShared, "5.4.8.2",
       "__cvta_shared_to_generic(__cvta_generic_to_shared(p)) == p for a pointer to shared memory") {
  const Conversion c = run(kShared);
  EXPECT_EQ(c.round_trip, c.generic) << "p";
}

RULE_F(AddressSpaceConversion, ConstantToGenericInvertsGenericToConstant, "5.4.8.2",
       "__cvta_constant_to_generic(__cvta_generic_to_constant(p)) == p for a pointer to constant memory") {
  const Conversion c = run(kConstant);
  EXPECT_EQ(c.round_trip, c.generic) << "p";
}

RULE_F(AddressSpaceConversion, LocalToGenericInvertsGenericToLocal, "5.4.8.2",
       "__cvta_local_to_generic(__cvta_generic_to_local(p)) == p for a pointer to local memory") {
  const Conversion c = run(kLocal);
  EXPECT_EQ(c.round_trip, c.generic) << "p";
}

RULE_F(AddressSpaceConversion, SharedAddressFitsIn32Bits, "5.4.8.2",
       "a shared-space address fits in 32 bits; zero-extended back, __cvta_shared_to_generic recovers the pointer") {
  const Conversion c = run(kShared);
  EXPECT_LE(c.in_space, 0xFFFFFFFFull) << "the space's address of p " << c.generic;
  EXPECT_EQ(c.round_trip_32_bit, c.generic) << "p";
}

RULE_F(AddressSpaceConversion, LocalAddressFitsIn32Bits, "5.4.8.2",
       "a local-space address fits in 32 bits; zero-extended back, __cvta_local_to_generic recovers the pointer") {
  const Conversion c = run(kLocal);
  EXPECT_LE(c.in_space, 0xFFFFFFFFull) << "the space's address of p " << c.generic;
  EXPECT_EQ(c.round_trip_32_bit, c.generic) << "p";
}

RULE_F(AddressSpaceConversion, ConstantAddressFitsIn32Bits, "5.4.8.2",
       "a constant-space address fits in 32 bits; zero-extended back, __cvta_constant_to_generic recovers the "
       "pointer") {
  const Conversion c = run(kConstant);
  EXPECT_LE(c.in_space, 0xFFFFFFFFull) << "the space's address of p " << c.generic;
  EXPECT_EQ(c.round_trip_32_bit, c.generic) << "p";
}

}  // namespace
