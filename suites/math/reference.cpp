#include "reference.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <thread>
#include <vector>

#include "reference/mathref.h"

namespace cuconform::math {
namespace {

std::string executable_directory() {
  char path[4096];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return ".";
  std::string p(path, std::size_t(n));
  return p.substr(0, p.rfind('/'));
}

std::vector<std::string> candidates() {
  std::vector<std::string> paths;
  if (const char* env = std::getenv("CUCONFORM_MATHREF"); env && *env) paths.push_back(env);
  const std::string here = executable_directory();
  paths.push_back(here + "/../lib/libcuconform-mathref.so");
  paths.push_back(here + "/../../../.mathref/libcuconform-mathref.so");  // build/<preset>/bin -> the source tree
  paths.push_back(".mathref/libcuconform-mathref.so");                   // run from the source tree
#ifdef CUCONFORM_SOURCE_DIR
  paths.push_back(std::string(CUCONFORM_SOURCE_DIR) + "/.mathref/libcuconform-mathref.so");
#endif
  return paths;
}

}  // namespace

const Reference* Reference::get(std::string* why) {
  static std::string failure;
  static const Reference* loaded = [] {
    std::string tried;
    for (const std::string& path : candidates()) {
      void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!handle) {
        tried += "\n  " + path + ": " + dlerror();
        continue;
      }
      auto abi = reinterpret_cast<int (*)()>(dlsym(handle, "cuconform_mathref_abi"));
      if (!abi || abi() != CUCONFORM_MATHREF_ABI) {
        tried += "\n  " + path + ": wrong or missing cuconform_mathref_abi";
        continue;
      }
      auto* r = new Reference;
      r->find_ = reinterpret_cast<Find>(dlsym(handle, "cuconform_mathref_find"));
      r->eval_ = reinterpret_cast<Eval>(dlsym(handle, "cuconform_mathref_eval"));
      r->eval_n_ = reinterpret_cast<EvalN>(dlsym(handle, "cuconform_mathref_eval_n"));
      r->quad_find_ = reinterpret_cast<Find>(dlsym(handle, "cuconform_mathref_quad_find"));
      r->quad_eval_ = reinterpret_cast<QuadEval>(dlsym(handle, "cuconform_mathref_quad_eval"));
      auto thread_safe = reinterpret_cast<int (*)()>(dlsym(handle, "cuconform_mathref_thread_safe"));
      r->thread_safe_ = thread_safe && thread_safe();
      r->path_ = path;
      return static_cast<const Reference*>(r);
    }
    failure = "the MPFR reference library libcuconform-mathref.so was not found (build it with "
              "scripts/build-math-reference where libmpfr-dev is installed, or set CUCONFORM_MATHREF); tried:" +
              tried;
    return static_cast<const Reference*>(nullptr);
  }();
  if (!loaded && why) *why = failure;
  return loaded;
}

int Reference::find(const char* name) const { return find_(name); }

ReferenceValue Reference::eval(int id, const double* args, int precision, Rounding rounding) const {
  cuconform_mathref_result result{};
  eval_(id, args, precision, int(rounding), &result);
  return {result.rounded, result.exact_hi, result.exact_lo, result.status == CUCONFORM_MATHREF_OK};
}

ReferenceValue Reference::eval_n(int id, const double* args, int n, int precision, Rounding rounding) const {
  cuconform_mathref_result result{};
  eval_n_(id, args, n, precision, int(rounding), &result);
  return {result.rounded, result.exact_hi, result.exact_lo, result.status == CUCONFORM_MATHREF_OK};
}

int Reference::quad_find(const char* name) const { return quad_find_(name); }

bool Reference::quad_eval(int id, const unsigned long long* args, unsigned long long* result) const {
  return quad_eval_(id, args, result) == CUCONFORM_MATHREF_OK;
}

void parallel_for(std::size_t count, bool threads, const std::function<void(std::size_t)>& body) {
  const unsigned workers = threads ? std::max(1u, std::min(32u, std::thread::hardware_concurrency())) : 1u;
  if (workers == 1 || count < 64) {
    for (std::size_t i = 0; i < count; ++i) body(i);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> pool;
  for (unsigned w = 0; w < workers; ++w) {
    pool.emplace_back([&] {
      for (std::size_t i; (i = next.fetch_add(1)) < count;) body(i);
    });
  }
  for (std::thread& t : pool) t.join();
}

}  // namespace cuconform::math
