#include "config.h"

#include <cstdlib>
#include <functional>
#include <sstream>
#include <vector>

#include "cuconform/profile.h"

namespace litmus {
namespace {

struct Key {
  const char* name;
  std::function<std::string(Config&, const std::string&)> set;  // "" or what is wrong with the value
  std::function<std::string(const Config&)> get;
};

bool parse_unsigned(const std::string& text, uint64_t& out) {
  if (text.empty() || text.size() > 19) return false;
  uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  out = value;
  return true;
}

template <class T>
Key unsigned_key(const char* name, T Config::* field, uint64_t min, uint64_t max) {
  return {name,
          [field, min, max](Config& c, const std::string& text) -> std::string {
            uint64_t value = 0;
            if (!parse_unsigned(text, value) || value < min || value > max) {
              return "expects an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
            }
            c.*field = static_cast<T>(value);
            return "";
          },
          [field](const Config& c) { return std::to_string(c.*field); }};
}

Key flag_key(const char* name, bool Config::* field) {
  return {name,
          [field](Config& c, const std::string& text) -> std::string {
            if (text != "0" && text != "1") return "expects 0 or 1";
            c.*field = text == "1";
            return "";
          },
          [field](const Config& c) { return std::string(c.*field ? "1" : "0"); }};
}

const std::vector<Key>& keys() {
  static const std::vector<Key> all = {
      unsigned_key("iterations", &Config::max_iterations, 1, 1ULL << 40),
      unsigned_key("instances", &Config::instances, 0, 1ULL << 50),
      {"budget_ms",
       [](Config& c, const std::string& text) -> std::string {
         uint64_t value = 0;
         if (!parse_unsigned(text, value) || value < 1 || value > 3600000) {
           return "expects milliseconds in [1, 3600000]";
         }
         c.budget_ms = static_cast<double>(value);
         return "";
       },
       [](const Config& c) { return std::to_string(static_cast<uint64_t>(c.budget_ms)); }},
      unsigned_key("block_size", &Config::block_size, 128, 1024),
      unsigned_key("blocks_per_sm", &Config::blocks_per_sm, 0, 32),
      unsigned_key("stress_percent", &Config::stress_percent, 0, 90),
      flag_key("stress", &Config::stress),
      unsigned_key("stress_iterations", &Config::stress_iterations, 0, 1u << 20),
      flag_key("prestress", &Config::prestress),
      unsigned_key("prestress_iterations", &Config::prestress_iterations, 0, 1u << 20),
      unsigned_key("stress_lines", &Config::stress_lines, 1, 1u << 20),
      unsigned_key("stress_target_lines", &Config::stress_target_lines, 1, 1u << 20),
      unsigned_key("stride_words", &Config::stride_words, 1, 1024),
      flag_key("bank_stress", &Config::bank_stress),
      unsigned_key("cluster_size", &Config::cluster_size, 2, 8),
      unsigned_key("spin_limit", &Config::spin_limit, 1, 1u << 30),
      unsigned_key("host_threads", &Config::host_threads, 1, 64),
      unsigned_key("host_rounds", &Config::host_rounds, 1, 1u << 20),
      unsigned_key("seed", &Config::seed, 0, ~0ULL >> 1),
      unsigned_key("check_every", &Config::check_every, 1, 4096),
  };
  return all;
}

}  // namespace

Config profile_config(bool full) {
  Config c;
  if (full) {
    c.max_iterations = 1ULL << 40;
    c.budget_ms = 2000;
    c.check_every = 64;
  } else {
    c.max_iterations = 1ULL << 20;
    // 5 ms: on an H100 the rarest weak outcome that decides a forbidden case (IRIW's sibling at Blocks) came about
    // 6,400 times in 15 ms (2026-11-26), so about 2,000 in 5 ms; the full profile's 2 s budget is the search.
    c.budget_ms = 5;
    c.check_every = 8;
  }
  return c;
}

std::string apply_overrides(Config& target, const std::string& overrides) {
  Config config = target;  // changed only when every override is good
  std::stringstream items(overrides);
  std::string item;
  while (std::getline(items, item, ',')) {
    if (item.empty()) continue;
    const auto equals = item.find('=');
    if (equals == std::string::npos) return "CUCONFORM_LITMUS: '" + item + "' is not key=value";
    const std::string name = item.substr(0, equals);
    const std::string value = item.substr(equals + 1);
    const Key* key = nullptr;
    for (const Key& k : keys()) {
      if (name == k.name) key = &k;
    }
    if (!key) {
      std::string known;
      for (const Key& k : keys()) known += std::string(known.empty() ? "" : ", ") + k.name;
      return "CUCONFORM_LITMUS: unknown key '" + name + "' (known: " + known + ")";
    }
    if (std::string error = key->set(config, value); !error.empty()) {
      return "CUCONFORM_LITMUS: " + name + "=" + value + ": " + error;
    }
  }
  if (config.stress_target_lines > config.stress_lines) {
    return "CUCONFORM_LITMUS: stress_target_lines must not exceed stress_lines";
  }
  target = config;
  return "";
}

Config current_config(std::string& error) {
  Config config = profile_config(cuconform::full_profile());
  const char* overrides = std::getenv("CUCONFORM_LITMUS");
  error = overrides ? apply_overrides(config, overrides) : "";
  return config;
}

std::string describe(const Config& config) {
  std::string out;
  for (const Key& k : keys()) out += std::string(out.empty() ? "" : ",") + k.name + "=" + k.get(config);
  return out;
}

}  // namespace litmus
