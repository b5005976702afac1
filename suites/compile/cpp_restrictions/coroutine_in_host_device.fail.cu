// rule: CppRestrictions.NoCoroutinesInHostDeviceFunctions
// section: PG12.9 18.5.25.2
// statement: a __host__ __device__ function is a device function too: co_return in its scope is diagnosed as an
//   error during device compilation
// std: c++20
// skip.nvrtc: needs <coroutine>, a host library header
// error: error: device code does not support coroutines
// error.clang: error: .*(coroutine|co_return)
#include <coroutine>

struct Task {
  struct promise_type {
    __host__ __device__ Task get_return_object() { return {}; }
    __host__ __device__ std::suspend_never initial_suspend() noexcept { return {}; }
    __host__ __device__ std::suspend_never final_suspend() noexcept { return {}; }
    __host__ __device__ void return_void() {}
    __host__ __device__ void unhandled_exception() {}
  };
};

__host__ __device__ Task both_sides() { co_return; }
