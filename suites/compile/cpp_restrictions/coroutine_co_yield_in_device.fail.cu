// rule: CppRestrictions.CoYieldNotInDeviceCode
// section: PG12.9 18.5.25.2
// statement: coroutines are not supported in device code: co_yield in the scope of a device function is diagnosed
//   as an error during device compilation
// std: c++20
// skip.nvrtc: needs <coroutine>, a host library header
// error: error: device code does not support coroutines
// error.clang: error: .*(coroutine|co_yield)
#include <coroutine>

struct Generator {
  struct promise_type {
    int current = 0;
    __host__ __device__ Generator get_return_object() { return {}; }
    __host__ __device__ std::suspend_never initial_suspend() noexcept { return {}; }
    __host__ __device__ std::suspend_never final_suspend() noexcept { return {}; }
    __host__ __device__ std::suspend_never yield_value(int value) noexcept {
      current = value;
      return {};
    }
    __host__ __device__ void return_void() {}
    __host__ __device__ void unhandled_exception() {}
  };
};

__device__ Generator device_generator() { co_yield 1; }
