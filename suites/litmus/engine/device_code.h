// The machine code (SASS) of the kernels in this very executable, as cuobjdump disassembles it: what the fence-code
// rule reads to check that a fence the source asks for is in the compiled kernel.
//
// The executable's fatbins are found by their header (magic 0xBA55ED50, version 1) rather than through its ELF
// sections, so that an executable whose fatbins were padded or replaced in place (scripts/conformance mutate) reads
// the same way; each is disassembled with `cuobjdump -sass`.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace litmus {

struct DeviceCode {
  std::string error;  // why there is no code ("" when it was read)
  std::string tool;   // the cuobjdump that read it
  size_t fatbins = 0;
  // mangled function name -> one instruction list per compiled variant (one per architecture in the fatbins)
  std::map<std::string, std::vector<std::vector<std::string>>> functions;
};

// The cuobjdump to use: $CUCONFORM_CUOBJDUMP, else the one beside the nvcc of the build, else on PATH; "" if none.
std::string find_cuobjdump();

// Parses `cuobjdump -sass` output into `code.functions` (instructions without address, encoding or ';').
void parse_sass(const std::string& text, DeviceCode& code);

// The SASS of every function in the fatbins of the file at `path` (e.g. /proc/self/exe): seconds for a whole
// executable the first time, then read from the cache beside it (fence_code.cpp says why no function list).
DeviceCode read_device_code(const std::string& path);

// The compiled variants of `name`, given mangled or demangled (cudaFuncGetName "may return a mangled name"); nullptr
// when the code has no such function.
const std::vector<std::vector<std::string>>* find_function(const DeviceCode& code, const std::string& name);

// The memory fences (MEMBAR) among `instructions` whose scope includes the block: .CTA, .GPU or .SYS.
std::vector<std::string> block_scope_fences(const std::vector<std::string>& instructions);

}  // namespace litmus
