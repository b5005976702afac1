// Whether this process runs under a compute-sanitizer tool: the harness sets CUCONFORM_SANITIZER to the tool's name
// for the GPU batches of `scripts/conformance run --sanitizer TOOL` (harness/cuconform/protocol.py).
//
// Under a tool every kernel runs many times slower (racecheck tracks each shared-memory access), and what the tool
// checks is the kernel's accesses, not how many shapes it is launched in. A sweep that launches the same kernel in
// many shapes may therefore sample them here; the quick and full profiles (profile.h) are unchanged.
#pragma once

#include <cstdlib>

namespace cuconform {

inline bool instrumented() {
  const char* tool = std::getenv("CUCONFORM_SANITIZER");
  return tool != nullptr && *tool != '\0';
}

}  // namespace cuconform
