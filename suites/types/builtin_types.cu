// 5.4.2 Built-in Types: the vector types of 5.4.2.3 (Table 42) as nvcc/clang compile them for the host and for
// the device, and the host compiler type extensions of 5.4.2.1.
#include <cuconform/cuconform.h>

#include <cstdint>
#include <iterator>
#include <random>
#include <vector>

#include "vector_types_check.h"

namespace {

using namespace cuconform::types;

// --- Host code, compiled by the CUDA compiler of this build. -------------------------------------------------------

class HostVectorType : public ::testing::TestWithParam<int> {
 protected:
  const DocumentedLayout& row() const { return kDocumentedLayouts[GetParam()]; }
  static const Layout& measured(int i) {
    static const Layout layouts[] = CUCONFORM_MEASURED_LAYOUTS;
    return layouts[i];
  }
  static const Made& made(int i) {
    static const Made values[] = CUCONFORM_MADE_VALUES;
    return values[i];
  }
};

RULE_P(HostVectorType, SizeAndAlignmentMatchTable42, "5.4.2.3",
       "in host code each vector type has the size and alignment of Table 42 (LP64 column for long)") {
  EXPECT_TRUE(SizeAndAlignmentMatch(measured(GetParam()), row()));
}

RULE_P(HostVectorType, ComponentsAreXYZWInOrder, "5.4.2.3",
       "in host code the first, second, third and fourth components of a vector type are its x, y, z, w fields") {
  EXPECT_TRUE(ComponentsInOrder(measured(GetParam()), row()));
}

RULE_P(HostVectorType, MakeSetsComponentsInOrder, "5.4.2.3",
       "in host code make_<type>(a, b, c, d) returns the vector whose x, y, z, w are a, b, c, d") {
  EXPECT_TRUE(MadeInOrder(made(GetParam()), row()));
}

INSTANTIATE_TEST_SUITE_P(Table42, HostVectorType, ::testing::Range(0, kVectorTypeCount), vector_type_name);

// --- Device code. ----------------------------------------------------------------------------------------------------

__global__ void measure_vector_types(Layout* layouts, Made* made) {
  const Layout device_layouts[] = CUCONFORM_MEASURED_LAYOUTS;
  const Made device_made[] = CUCONFORM_MADE_VALUES;
  for (int i = 0; i < kVectorTypeCount; ++i) {
    layouts[i] = device_layouts[i];
    made[i] = device_made[i];
  }
}

class DeviceVectorType : public cuconform::GpuTestWithParam<int> {
 protected:
  struct Measurements {
    std::vector<Layout> layouts;
    std::vector<Made> made;
  };
  // One launch measures every type; the rules of all types read its result.
  static const Measurements& measurements() {
    static const Measurements result = [] {
      cuconform::DeviceBuffer<Layout> layouts(kVectorTypeCount);
      cuconform::DeviceBuffer<Made> made(kVectorTypeCount);
      cuconform::launch(measure_vector_types, 1, 1, layouts.get(), made.get());
      return Measurements{layouts.to_host(), made.to_host()};
    }();
    return result;
  }
  const DocumentedLayout& row() const { return kDocumentedLayouts[GetParam()]; }
};

RULE_P(DeviceVectorType, SizeAndAlignmentMatchTable42, "5.4.2.3",
       "in device code each vector type has the size and alignment of Table 42 (LP64 column for long)") {
  EXPECT_TRUE(SizeAndAlignmentMatch(measurements().layouts[GetParam()], row()));
}

RULE_P(DeviceVectorType, ComponentsAreXYZWInOrder, "5.4.2.3",
       "in device code the first, second, third and fourth components of a vector type are its x, y, z, w fields") {
  EXPECT_TRUE(ComponentsInOrder(measurements().layouts[GetParam()], row()));
}

RULE_P(DeviceVectorType, MakeSetsComponentsInOrder, "5.4.2.3",
       "in device code make_<type>(a, b, c, d) returns the vector whose x, y, z, w are a, b, c, d") {
  EXPECT_TRUE(MadeInOrder(measurements().made[GetParam()], row()));
}

INSTANTIATE_TEST_SUITE_P(Table42, DeviceVectorType, ::testing::Range(0, kVectorTypeCount), vector_type_name);

// --- The data model of long (footnote of Table 42). ---------------------------------------------------------------

RULE(LongDataModel, HostLongIsEightBytesOnLinux, "5.4.2.3",
     "long is 8 bytes on the C++ LP64 data model (Linux 64-bit)") {
#if defined(__linux__) && defined(__LP64__)
  EXPECT_EQ(sizeof(long), 8u);
#else
  GTEST_SKIP() << "not a Linux 64-bit (LP64) host";
#endif
}

__global__ void device_sizeof_long(unsigned long long* size) { *size = sizeof(long); }

class LongDataModelOnDevice : public cuconform::GpuTest {};

RULE_F(LongDataModelOnDevice, MatchesHost, "5.4.2.3",
       "long, and so the long vector types, have the host's size in device code (4 on LLP64, 8 on LP64)") {
  cuconform::DeviceBuffer<unsigned long long> size(1);
  cuconform::launch(device_sizeof_long, 1, 1, size.get());
  EXPECT_EQ(size.value_at(0), sizeof(long));
}

// ==================================================================================================================
// 5.4.2.1 Host Compiler Type Extensions: __int128 in device code, supported on Linux when the host compiler defines
// __SIZEOF_INT128__. Device results are checked against the host compiler's own __int128 arithmetic.
// ==================================================================================================================

#if defined(__SIZEOF_INT128__)

// Products, sums and quotients that need all 128 bits, for a few signed and unsigned operand pairs.
struct Int128Results {
  unsigned __int128 unsigned_product, unsigned_sum, unsigned_quotient;
  __int128 signed_product, signed_difference, signed_quotient;
};

__host__ __device__ Int128Results int128_arithmetic(std::uint64_t a, std::uint64_t b, std::int64_t c, std::int64_t d) {
  Int128Results r;
  r.unsigned_product = static_cast<unsigned __int128>(a) * b;
  r.unsigned_sum = (static_cast<unsigned __int128>(a) << 64) + b;
  r.unsigned_quotient = r.unsigned_product / (b | 1u);
  r.signed_product = static_cast<__int128>(c) * d;
  r.signed_difference = static_cast<__int128>(c) * (static_cast<__int128>(1) << 63) - d;
  r.signed_quotient = r.signed_product / (d == 0 ? 1 : d);
  return r;
}

struct Operands {
  std::uint64_t a, b;
  std::int64_t c, d;
};

const Operands kOperands[] = {
    {0xffffffffffffffffull, 0xffffffffffffffffull, INT64_MIN, INT64_MIN},
    {0x123456789abcdef0ull, 0xfedcba9876543210ull, INT64_MAX, -3},
    {1, 0xffffffffffffffffull, -1, INT64_MAX},
    {0x8000000000000000ull, 2, 0x7edcba9876543210ll, -0x123456789abcdefll},
};

// The edge pairs above, then seeded pairs of every size (each operand's bit length drawn from 1 to 64, each signed
// operand's sign at random), so that the divisions meet divisors of every normalisation, as many as one block holds.
std::vector<Operands> operand_pairs() {
  std::vector<Operands> pairs(std::begin(kOperands), std::end(kOperands));
  std::mt19937_64 random(0x1285);
  const auto sized = [&random] {
    const unsigned bits = 1 + static_cast<unsigned>(random() % 64);
    const std::uint64_t value = random();
    return bits == 64 ? value : value & ((std::uint64_t{1} << bits) - 1);
  };
  const auto signed_sized = [&] {
    const std::uint64_t magnitude = sized();
    return static_cast<std::int64_t>(random() % 2 ? magnitude : ~magnitude);
  };
  while (pairs.size() < 256) pairs.push_back({sized(), sized(), signed_sized(), signed_sized()});
  return pairs;
}

__global__ void int128_on_device(const Operands* operands, Int128Results* results) {
  const Operands& o = operands[threadIdx.x];
  results[threadIdx.x] = int128_arithmetic(o.a, o.b, o.c, o.d);
}

bool operator==(const Int128Results& x, const Int128Results& y) {
  return x.unsigned_product == y.unsigned_product && x.unsigned_sum == y.unsigned_sum &&
         x.unsigned_quotient == y.unsigned_quotient && x.signed_product == y.signed_product &&
         x.signed_difference == y.signed_difference && x.signed_quotient == y.signed_quotient;
}

void PrintTo(const Int128Results& r, std::ostream* out) {
  auto hex = [out](unsigned __int128 v) {
    *out << std::hex << "0x" << static_cast<std::uint64_t>(v >> 64) << "_" << static_cast<std::uint64_t>(v) << std::dec;
  };
  *out << "{";
  hex(r.unsigned_product), *out << ", ", hex(r.unsigned_sum), *out << ", ", hex(r.unsigned_quotient);
  *out << ", ";
  hex(static_cast<unsigned __int128>(r.signed_product)), *out << ", ";
  hex(static_cast<unsigned __int128>(r.signed_difference)), *out << ", ";
  hex(static_cast<unsigned __int128>(r.signed_quotient)), *out << "}";
}

#endif  // __SIZEOF_INT128__

class Int128 : public cuconform::GpuTest {};

RULE_F(Int128, DeviceArithmeticMatchesHost, "5.4.2.1",
       "__int128 is supported (on Linux, where the host compiler defines __SIZEOF_INT128__): device arithmetic on "
       "it gives the host's results") {
#if defined(__SIZEOF_INT128__)
  const std::vector<Operands> operands = operand_pairs();
  cuconform::DeviceBuffer<Operands> device_operands(operands);
  cuconform::DeviceBuffer<Int128Results> results(operands.size());
  cuconform::launch(int128_on_device, 1, static_cast<unsigned>(operands.size()), device_operands.get(), results.get());
  std::vector<Int128Results> expected;
  for (const Operands& o : operands) expected.push_back(int128_arithmetic(o.a, o.b, o.c, o.d));
  EXPECT_TRUE(cuconform::ElementsEqual(results.to_host(), expected));
#else
  GTEST_SKIP() << "the host compiler does not define __SIZEOF_INT128__";
#endif
}

}  // namespace
