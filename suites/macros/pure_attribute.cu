// 5.4.7.4 __nv_pure__: supported on host and device functions; a pure function has no side effects, so calls to it
// may be merged, but what it returns is what its body computes. (That nvcc turns it into the GNU pure attribute is a
// compile-time rule of suites/compile.) clang does not know the attribute (it warns and ignores it): the rules skip.
#include <cuconform/cuconform.h>

#include <vector>

namespace {

#if CUCONFORM_NVIDIA_COMPILER
__device__ __nv_pure__ int pure_device_add(int a, int b) { return a + b; }

__host__ __device__ __nv_pure__ int pure_host_device_weight(const int* values, int n) {
  int sum = 0;
  for (int i = 0; i < n; ++i) sum += (i + 1) * values[i];
  return sum;
}

__global__ void call_pure_functions(const int* values, int n, int* out) {
  out[0] = pure_device_add(values[0], values[1]);
  out[1] = pure_host_device_weight(values, n);
  out[2] = pure_host_device_weight(values, n) + pure_host_device_weight(values, n);  // may be merged
}
#endif

const std::vector<int> kValues{3, -1, 4, 1, -5, 9};
const int kWeighted = 1 * 3 + 2 * -1 + 3 * 4 + 4 * 1 + 5 * -5 + 6 * 9;
// The words after the n values in the device buffer: non-zero, so that a body that reads past values[n - 1] (its loop
// bound computed wrongly) returns something else than what it computes over the n values.
const std::vector<int> kBeyond{7, -11, 13, 17};

class PureAttribute : public cuconform::GpuTest {};

RULE_F(PureAttribute, PureDeviceFunctionsReturnWhatTheyCompute, "5.4.7.4",
       "__device__ and __host__ __device__ functions declared __nv_pure__ return what their bodies compute in device "
       "code, also when called twice with the same arguments, and for an empty array (n = 0: the sum is 0)") {
#if CUCONFORM_NVIDIA_COMPILER
  std::vector<int> words(kValues);
  words.insert(words.end(), kBeyond.begin(), kBeyond.end());
  cuconform::DeviceBuffer<int> values(words), out(3);
  cuconform::launch(call_pure_functions, 1, 1, values.get(), static_cast<int>(kValues.size()), out.get());
  EXPECT_TRUE(cuconform::ElementsEqual(out.to_host(), std::vector<int>{2, kWeighted, 2 * kWeighted})) << "n = 6";
  cuconform::launch(call_pure_functions, 1, 1, values.get(), 0, out.get());
  EXPECT_TRUE(cuconform::ElementsEqual(out.to_host(), std::vector<int>{2, 0, 0})) << "n = 0";
#else
  SKIP_COMPILED_OUT("clang ignores the nv_pure attribute (-Wunknown-attributes)");
#endif
}

RULE(PureHostAttribute, PureHostDeviceFunctionReturnsWhatItComputesOnTheHost, "5.4.7.4",
     "a __host__ __device__ function declared __nv_pure__ returns what its body computes in host code") {
#if CUCONFORM_NVIDIA_COMPILER
  EXPECT_EQ(pure_host_device_weight(kValues.data(), static_cast<int>(kValues.size())), kWeighted);
#else
  SKIP_COMPILED_OUT("clang ignores the nv_pure attribute (-Wunknown-attributes)");
#endif
}

}  // namespace
