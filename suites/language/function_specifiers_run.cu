// 5.4.1.3 and 5.4.1.6: the inlining specifiers, and PG12.9 18.5.17 [[noreturn]], on device code. The compile cases of
// suites/compile/inlining/ and cpp_restrictions/ show that a compiler accepts them; here the same files are compiled
// into this binary and their kernels run. A specifier changes how a call is compiled, never what it computes: the
// host compares each kernel's value with the one its functions give.
#include <cuconform/cuconform.h>

#include <vector>

namespace inline_hint_on_device {
#include "../compile/inlining/inline_hint_on_device.pass.cu"
}
namespace noinline_on_host_device {
#include "../compile/inlining/noinline_on_host_device.pass.cu"
}
namespace noreturn_in_device {
#include "../compile/cpp_restrictions/noreturn_in_device.pass.cu"
}

namespace {

class FunctionSpecifiersRun : public cuconform::GpuTest {
 protected:
  // Runs kernel(int* out) on one thread with *out starting at `initial`; returns *out.
  static int run(void (*kernel)(int*), int initial) {
    cuconform::DeviceBuffer<int> out(std::vector<int>{initial});
    cuconform::launch(kernel, 1, 1, out.get());
    return out.value_at(0);
  }
};

RULE_F(FunctionSpecifiersRun, InlineHintKeepsTheResult, "5.4.1.3",
       "an __inline_hint__ __device__ function computes what it says: twice(21) is 42") {
  EXPECT_EQ(run(inline_hint_on_device::kernel, 21), 42);
}

RULE_F(FunctionSpecifiersRun, InliningSpecifiersOnHostDeviceFunctionsKeepTheirResults, "5.4.1.6",
       "__noinline__, __forceinline__ and __inline_hint__ __host__ __device__ functions compute what they say in "
       "device code, as on the host: a(5) + b(5) + c(5) is 6 + 7 + 8") {
  EXPECT_EQ(run(noinline_on_host_device::kernel, 5), 21) << "device";
  EXPECT_EQ(noinline_on_host_device::a(5) + noinline_on_host_device::b(5) + noinline_on_host_device::c(5), 21)
      << "host";
}

RULE_F(FunctionSpecifiersRun, NoreturnFunctionNotCalledLeavesTheRestOfTheKernel, "PG12.9 18.5.17",
       "a [[noreturn]] __device__ function that is not called changes nothing: the kernel's other path stores 1") {
  EXPECT_EQ(run(noreturn_in_device::kernel, 5), 1);
}

}  // namespace
