// 5.4.2.1 Host Compiler Type Extensions: __int128 in device code, supported on Linux when the host compiler defines
// __SIZEOF_INT128__. Device results are checked against the host compiler's own __int128 arithmetic.
#include <cuconform/cuconform.h>

#include <cstdint>
#include <vector>

namespace {

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
constexpr int kOperandCount = sizeof(kOperands) / sizeof(kOperands[0]);

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
    *out << std::hex << "0x" << static_cast<std::uint64_t>(v >> 64) << "_" << static_cast<std::uint64_t>(v)
         << std::dec;
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
  const std::vector<Operands> operands(std::begin(kOperands), std::end(kOperands));
  cuconform::DeviceBuffer<Operands> device_operands(operands);
  cuconform::DeviceBuffer<Int128Results> results(kOperandCount);
  cuconform::launch(int128_on_device, 1, kOperandCount, device_operands.get(), results.get());
  std::vector<Int128Results> expected;
  for (const Operands& o : operands) expected.push_back(int128_arithmetic(o.a, o.b, o.c, o.d));
  EXPECT_TRUE(cuconform::ElementsEqual(results.to_host(), expected));
#else
  GTEST_SKIP() << "the host compiler does not define __SIZEOF_INT128__";
#endif
}

}  // namespace
