// rule: CppRestrictions.CoAwaitNotInDeviceCode
// section: PG12.9 18.5.25.2
// statement: coroutines are not supported in device code: co_await in the scope of a device function is diagnosed
//   as an error during device compilation
// std: c++20
// skip.nvrtc: needs <coroutine>, a host library header
// error: error: device code does not support coroutines
// error.clang: error: .*(coroutine|co_await)
#include <coroutine>

struct Ready {
  __host__ __device__ bool await_ready() const noexcept { return true; }
  __host__ __device__ void await_suspend(std::coroutine_handle<>) const noexcept {}
  __host__ __device__ int await_resume() const noexcept { return 1; }
};

struct Task {
  struct promise_type {
    __host__ __device__ Task get_return_object() { return {}; }
    __host__ __device__ std::suspend_never initial_suspend() noexcept { return {}; }
    __host__ __device__ std::suspend_never final_suspend() noexcept { return {}; }
    __host__ __device__ void return_void() {}
    __host__ __device__ void unhandled_exception() {}
  };
};

__device__ Task device_coroutine(int* out) { *out = co_await Ready{}; }
