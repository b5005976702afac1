#include "copy_cases.h"

#include <cuconform/profile.h>

#include <algorithm>

namespace async_copy {

std::vector<unsigned char> random_source() {
  std::vector<unsigned char> bytes(kSourceBytes);
  unsigned state = 0x2545F491u;
  for (unsigned char& b : bytes) {
    state = state * 1664525u + 1013904223u;
    b = static_cast<unsigned char>(state >> 24);
  }
  return bytes;
}

std::vector<CopyCase> copy_cases(unsigned align) {
  std::vector<unsigned> sizes;
  const unsigned every_up_to = cuconform::full_profile() ? 520 : 48;
  for (unsigned s = 1; s <= every_up_to; ++s) sizes.push_back(s);
  if (!cuconform::full_profile()) {
    for (unsigned s : {63u, 64u, 65u, 127u, 128u, 129u, 255u, 256u, 257u}) sizes.push_back(s);
  }
  std::vector<CopyCase> cases;
  for (unsigned size : sizes) {
    if (size % align != 0) continue;
    for (unsigned src = 0; src < kMaxOffset; src += align) {
      for (unsigned dst = 0; dst < kMaxOffset; dst += align) cases.push_back({size, src, dst});
    }
  }
  return cases;
}

unsigned max_size(const std::vector<CopyCase>& cases) {
  unsigned largest = 0;
  for (const CopyCase& c : cases) largest = std::max(largest, c.size);
  return largest;
}

}  // namespace async_copy
