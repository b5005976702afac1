// rule: CppRestrictions.CoroutinesInHostCode
// section: PG12.9 18.5.25.2
// statement: coroutines are unsupported only in device code: host functions of a CUDA translation unit may use
//   co_yield and co_return (C++20 features of the host compiler are supported, 18.5.25)
// std: c++20
// skip.nvrtc: host code and <coroutine>, a host library header
#include <coroutine>

struct Generator {
  struct promise_type {
    int current = 0;
    Generator get_return_object() { return Generator{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(int value) noexcept {
      current = value;
      return {};
    }
    void return_void() {}
    void unhandled_exception() {}
  };
  std::coroutine_handle<promise_type> handle;
};

Generator count_to(int n) {
  for (int i = 1; i <= n; ++i) co_yield i;
  co_return;
}

int sum_to(int n) {
  Generator counting = count_to(n);
  int sum = 0;
  for (counting.handle.resume(); !counting.handle.done(); counting.handle.resume())
    sum += counting.handle.promise().current;
  counting.handle.destroy();
  return sum;
}

__global__ void kernel(int* out) { *out = 1; }
