// Passing what one process exported to its child: a POSIX file descriptor the child inherits (its close-on-exec
// flag cleared) and opaque handle bytes, both through environment variables.
#pragma once

#include <fcntl.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace cuconform::memory_management {

// Clears FD_CLOEXEC so that the child spawned next inherits `fd` under the same number.
inline bool inheritable(int fd) { return fd >= 0 && fcntl(fd, F_SETFD, 0) == 0; }

template <class Bytes>
std::string to_hex(const Bytes& bytes) {
  const auto* p = reinterpret_cast<const unsigned char*>(&bytes);
  std::string text;
  char digits[3];
  for (std::size_t i = 0; i < sizeof(Bytes); ++i) {
    std::snprintf(digits, sizeof digits, "%02x", p[i]);
    text += digits;
  }
  return text;
}

// Reads `bytes` back from the environment variable `name`; false when it is missing or malformed.
template <class Bytes>
bool from_hex_env(const char* name, Bytes& bytes) {
  const char* text = std::getenv(name);
  if (!text || std::string(text).size() != 2 * sizeof(Bytes)) return false;
  auto* p = reinterpret_cast<unsigned char*>(&bytes);
  for (std::size_t i = 0; i < sizeof(Bytes); ++i) {
    unsigned value = 0;
    if (std::sscanf(text + 2 * i, "%2x", &value) != 1) return false;
    p[i] = static_cast<unsigned char>(value);
  }
  return true;
}

inline int int_env(const char* name, int fallback = -1) {
  const char* text = std::getenv(name);
  return text ? std::atoi(text) : fallback;
}

}  // namespace cuconform::memory_management
