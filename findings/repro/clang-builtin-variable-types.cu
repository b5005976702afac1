// compiler: clang
// 5.4.2.2: gridDim and blockDim are of type dim3, blockIdx and threadIdx of type uint3. In clang 22 they are
// objects of the types __cuda_builtin_gridDim_t, __cuda_builtin_blockDim_t, __cuda_builtin_blockIdx_t and
// __cuda_builtin_threadIdx_t (__clang_cuda_builtin_vars.h): read-only wrappers of the special registers that
// convert to dim3/uint3 but are not those types (and delete copying and address-of, so `auto t = threadIdx;` and
// `&threadIdx` do not compile). The check is at compile time; the program needs no GPU. Exits 1 while that
// reproduces, 0 once the types are the documented ones.
#include <cstdio>
#include <type_traits>

template <class Variable, class Documented>
constexpr bool has_type = std::is_same_v<std::remove_cv_t<std::remove_reference_t<Variable>>, Documented>;

int main() {
  const bool grid = has_type<decltype(gridDim), dim3>, block = has_type<decltype(blockDim), dim3>,
             block_idx = has_type<decltype(blockIdx), uint3>, thread_idx = has_type<decltype(threadIdx), uint3>;
  std::printf("gridDim is dim3:    documented yes, observed %s\n", grid ? "yes" : "no");
  std::printf("blockDim is dim3:   documented yes, observed %s\n", block ? "yes" : "no");
  std::printf("blockIdx is uint3:  documented yes, observed %s\n", block_idx ? "yes" : "no");
  std::printf("threadIdx is uint3: documented yes, observed %s\n", thread_idx ? "yes" : "no");
  const bool ok = grid && block && block_idx && thread_idx;
  std::printf("%s\n", ok ? "as documented" : "DISAGREES with the documentation");
  return ok ? 0 : 1;
}
