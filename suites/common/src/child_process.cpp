#include "cuconform/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "cuconform/metric.h"
#include "cuconform/rule.h"

extern char** environ;

namespace cuconform {
namespace {

constexpr std::string_view kObservedTag = "[ OBSERVED ] ";

std::string& child_executable() {
  static std::string path = "/proc/self/exe";
  return path;
}

std::vector<std::string> child_environment(const std::vector<EnvSetting>& changes) {
  std::vector<std::string> result;
  for (char** entry = environ; *entry; ++entry) {
    std::string_view line = *entry;
    std::string_view name = line.substr(0, line.find('='));
    bool changed = false;
    for (const EnvSetting& change : changes) changed = changed || change.name == name;
    if (!changed) result.emplace_back(line);
  }
  for (const EnvSetting& change : changes) {
    if (change.value) result.push_back(change.name + "=" + *change.value);
  }
  return result;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> result;
  for (std::string& s : strings) result.push_back(s.data());
  result.push_back(nullptr);
  return result;
}

std::map<std::string, std::string> parse_observations(const std::string& output) {
  std::map<std::string, std::string> observed;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(kObservedTag, 0) != 0) continue;
    std::string rest = line.substr(kObservedTag.size());
    auto equals = rest.find(" = ");
    if (equals == std::string::npos) continue;
    observed[rest.substr(0, equals)] = rest.substr(equals + 3);
  }
  return observed;
}

// Counts a child for the test that starts it (the metric child_processes: what the test's processes cost), and fails
// a rule that starts one without saying so (CHILD_PROCESS_RULE_F, rule.h): the harness would plan it as a launch.
void count_the_child_of_this_test() {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  if (!test) return;
  static std::string counted_for;
  static long long children = 0;
  const std::string full_name = std::string(test->test_suite_name()) + "." + test->name();
  if (full_name != counted_for) {
    counted_for = full_name;
    children = 0;
  }
  record_metric("child_processes", ++children);
  const RuleInfo* rule = find_rule_of_test(test->test_suite_name(), test->name());
  if (rule && !rule->child_processes) {
    ADD_FAILURE() << "the rule " << rule->suite << "." << rule->name << " starts a child process but is not declared "
                  << "with CHILD_PROCESS_RULE_F (cuconform/rule.h): the harness plans it as a launch";
  }
}

}  // namespace

bool ChildRun::passed() const {
  return exit_code == 0 && !timed_out && output.find("[  PASSED  ] 1 test") != std::string::npos;
}

long long ChildRun::number(const std::string& key) const {
  auto found = observed.find(key);
  if (found == observed.end()) throw std::runtime_error("the child did not observe '" + key + "'");
  return std::stoll(found->second);
}

std::string ChildRun::describe() const {
  std::ostringstream out;
  if (timed_out) {
    out << "the child was killed after its time limit";
  } else if (signal != 0) {
    out << "the child ended by signal " << signal << " (" << strsignal(signal) << ")";
  } else {
    out << "the child exited with code " << exit_code;
  }
  out << "; its output:";
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) out << "\n    child> " << line;
  return out.str();
}

ChildRun run_child(std::string_view test, const std::vector<EnvSetting>& env, int timeout_seconds) {
  count_the_child_of_this_test();
  int pipe_ends[2];
  if (pipe2(pipe_ends, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_ends[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipe_ends[1], STDERR_FILENO);

  const std::string executable = child_executable();
  std::vector<std::string> args = {executable, "--gtest_filter=" + std::string(test), "--gtest_also_run_disabled_tests",
                                   "--gtest_color=no"};
  std::vector<std::string> environment = child_environment(env);
  std::vector<char*> argv = pointers(args);
  std::vector<char*> envp = pointers(environment);

  std::fflush(stdout);
  pid_t pid = 0;
  int spawn_error = posix_spawn(&pid, executable.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_ends[1]);
  if (spawn_error != 0) {
    close(pipe_ends[0]);
    throw std::runtime_error(std::string("posix_spawn failed: ") + std::strerror(spawn_error));
  }

  ChildRun run;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  char buffer[4096];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      run.timed_out = true;
      kill(pid, SIGKILL);
      break;
    }
    pollfd readable{pipe_ends[0], POLLIN, 0};
    if (poll(&readable, 1, static_cast<int>(left.count())) <= 0) continue;
    ssize_t got = read(pipe_ends[0], buffer, sizeof buffer);
    if (got <= 0) break;
    run.output.append(buffer, static_cast<std::size_t>(got));
  }
  close(pipe_ends[0]);

  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status) && !run.timed_out) run.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) run.signal = WTERMSIG(status);
  run.observed = parse_observations(run.output);
  return run;
}

void set_child_executable(std::string path) { child_executable() = std::move(path); }

void observe(std::string_view key, std::string_view value) {
  std::printf("%.*s%.*s = %.*s\n", static_cast<int>(kObservedTag.size()), kObservedTag.data(),
              static_cast<int>(key.size()), key.data(), static_cast<int>(value.size()), value.data());
  std::fflush(stdout);
}

void observe(std::string_view key, long long value) { observe(key, std::to_string(value)); }

}  // namespace cuconform
