// The one JSON string escaper of the suite binaries: the listing (main.cpp) and [ METRIC ] lines (metric.cpp)
// both write JSON that the harness parses, so they escape alike: '"' and '\' with a backslash, newline and tab as
// \n and \t, every other control character as \u00XX; bytes from 0x20 up pass unchanged (UTF-8 stays UTF-8).
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace cuconform::detail {

inline std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
          out += escaped;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

}  // namespace cuconform::detail
