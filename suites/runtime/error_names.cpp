// CUDA Runtime API 13.0, Error Handling: cudaGetErrorName() returns the name of an error code in the enum and
// cudaGetErrorString() its description; an unrecognized code gives "unrecognized error code" from both. The
// enumerators are read from this toolkit's driver_types.h at configure time (error_enumerators.inc), so a toolkit
// that adds a code is checked for it. Host rules: neither function needs a device or initializes the runtime.
#include <cuconform/cuconform.h>

#include <cuda_runtime.h>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace {

const std::vector<std::pair<cudaError_t, const char*>>& enumerators() {
  static const std::vector<std::pair<cudaError_t, const char*>> all = {
#define CUCONFORM_ERROR_ENUMERATOR(name) {name, #name},
#include "error_enumerators.inc"
#undef CUCONFORM_ERROR_ENUMERATOR
  };
  return all;
}

constexpr const char* kUnrecognized = "unrecognized error code";

RULE(ErrorNames, EveryEnumeratorIsNamedByItsIdentifier, "CUDA Runtime API 13.0 Error Handling",
     "cudaGetErrorName() returns a string containing the name of the error code in the enum") {
  ASSERT_GT(enumerators().size(), 100u) << "driver_types.h was not read";
  std::size_t wrong = 0;
  for (const auto& [code, name] : enumerators()) {
    const char* returned = cudaGetErrorName(code);
    if (returned == nullptr || std::strcmp(returned, name) != 0) {
      ADD_FAILURE() << "cudaGetErrorName(" << static_cast<int>(code) << ") is \"" << (returned ? returned : "(null)")
                    << "\", expected \"" << name << "\"";
      if (++wrong == cuconform::kMismatchesShown) break;
    }
  }
  cuconform::record_metric("enumerators", static_cast<long long>(enumerators().size()));
}

RULE(ErrorNames, EveryEnumeratorHasADescription, "CUDA Runtime API 13.0 Error Handling",
     "cudaGetErrorString() returns the description string of every error code in the enum") {
  std::size_t wrong = 0;
  for (const auto& [code, name] : enumerators()) {
    const char* returned = cudaGetErrorString(code);
    if (returned == nullptr || *returned == '\0' || std::strcmp(returned, kUnrecognized) == 0) {
      ADD_FAILURE() << "cudaGetErrorString(" << name << ") is \"" << (returned ? returned : "(null)") << "\"";
      if (++wrong == cuconform::kMismatchesShown) break;
    }
  }
}

RULE(ErrorNames, AnUnrecognizedCodeIsSaidToBeOne, "CUDA Runtime API 13.0 Error Handling",
     "for an error code that is not in the enum both cudaGetErrorName() and cudaGetErrorString() return "
     "\"unrecognized error code\"") {
  for (int value : {-1, 5, 12345, 999999}) {
    bool listed = false;
    for (const auto& [code, name] : enumerators()) listed = listed || static_cast<int>(code) == value;
    if (listed) continue;
    const auto code = static_cast<cudaError_t>(value);
    EXPECT_STREQ(cudaGetErrorName(code), kUnrecognized) << "code " << value;
    EXPECT_STREQ(cudaGetErrorString(code), kUnrecognized) << "code " << value;
  }
}

}  // namespace
