// Rules whose documented effect needs a process of its own (runtime initialization, environment variables, sticky
// errors) run a child of this same binary: a DISABLED_ test, which the harness never lists or runs, selected with
// --gtest_also_run_disabled_tests, in the environment the rule needs. The child reports what it saw as lines
// "[ OBSERVED ] key = value"; the parent test judges them against the documented outcome.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cuconform {

struct EnvSetting {
  std::string name;
  std::optional<std::string> value;  // nullopt: the child does not inherit the variable
};

struct ChildRun {
  int exit_code = -1;  // -1 when a signal or the time limit ended it
  int signal = 0;
  bool timed_out = false;
  std::string output;                           // stdout and stderr, merged
  std::map<std::string, std::string> observed;  // the child's "[ OBSERVED ]" lines

  // The child's test ran to its end and passed.
  bool passed() const;
  // Whether the child observed `key`, and its value as a number.
  bool has(const std::string& key) const { return observed.count(key) != 0; }
  long long number(const std::string& key) const;
  // How the child ended and its output, each line indented, for a failure message.
  std::string describe() const;
};

// Runs `test` (e.g. "RuntimeChild.DISABLED_ListDevices") in a child process of this binary with `env` applied to
// this process's environment. A child still running after `timeout_seconds` is killed.
ChildRun run_child(std::string_view test, const std::vector<EnvSetting>& env = {}, int timeout_seconds = 60);

// The executable run_child starts: /proc/self/exe, unless an area's module runs inside cuconform-multi, whose entry
// names the area's own executable (built from the same objects) here.
void set_child_executable(std::string path);

// In the child: one observation for the parent.
void observe(std::string_view key, std::string_view value);
void observe(std::string_view key, long long value);

}  // namespace cuconform
