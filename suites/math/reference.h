// The test binaries' door to the exact reference: libcuconform-mathref.so, loaded at run time so that a binary built
// where MPFR's headers are missing (the GPU machine) still runs once the library is carried there.
//
// Where the library is looked for, in order:
//   $CUCONFORM_MATHREF                       (a path to the .so)
//   <directory of the binary>/../lib/libcuconform-mathref.so   (CMake builds it there when it finds mpfr.h)
//   <directory of the binary>/../../../.mathref/libcuconform-mathref.so, ./.mathref/libcuconform-mathref.so and
//   <source tree at build time>/.mathref/libcuconform-mathref.so   (scripts/build-math-reference puts it there)
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "ulp.h"

namespace cuconform::math {

struct ReferenceValue {
  double rounded = 0, hi = 0, lo = 0;
  bool decided = false;  // false: undecided at 4096 bits (reported, never silently passed)
};

class Reference {
 public:
  // The loaded library, or nullptr with `why` set.
  static const Reference* get(std::string* why);

  int find(const char* name) const;
  ReferenceValue eval(int id, const double* args, int precision, Rounding rounding) const;
  // A function of n arguments ("norm", "rnorm": the length of a vector of n coordinates and its reciprocal).
  ReferenceValue eval_n(int id, const double* args, int n, int precision, Rounding rounding) const;
  // binary128 (the __nv_fp128_* functions): values as { low, high } words of the encoding, rounded to nearest even.
  int quad_find(const char* name) const;
  bool quad_eval(int id, const unsigned long long* args, unsigned long long* result) const;
  bool thread_safe() const { return thread_safe_; }
  const std::string& path() const { return path_; }

 private:
  using Find = int (*)(const char*);
  using Eval = void (*)(int, const double*, int, int, void*);
  Find find_ = nullptr;
  Eval eval_ = nullptr;
  using EvalN = void (*)(int, const double*, int, int, int, void*);
  using QuadEval = int (*)(int, const unsigned long long*, unsigned long long*);
  EvalN eval_n_ = nullptr;
  Find quad_find_ = nullptr;
  QuadEval quad_eval_ = nullptr;
  bool thread_safe_ = false;
  std::string path_;
};

// Runs body(i) for i in [0, count) on the host's cores (one thread when MPFR is not thread-safe).
void parallel_for(std::size_t count, bool threads, const std::function<void(std::size_t)>& body);

}  // namespace cuconform::math
