#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "cuconform/rule.h"

namespace cuconform {
namespace {

std::map<std::string, RuleInfo, std::less<>>& registry() {
  static std::map<std::string, RuleInfo, std::less<>> rules;
  return rules;
}

std::string key_of(std::string_view suite, std::string_view name) {
  return std::string(suite) + "." + std::string(name);
}

}  // namespace

int register_rule(const RuleInfo& rule) {
  if (!registry().emplace(key_of(rule.suite, rule.name), rule).second) {
    std::fprintf(stderr, "cuconform: rule %.*s.%.*s is registered twice\n", int(rule.suite.size()), rule.suite.data(),
                 int(rule.name.size()), rule.name.data());
    std::abort();
  }
  return 0;
}

const RuleInfo* find_rule(std::string_view suite, std::string_view name) {
  auto it = registry().find(key_of(suite, name));
  return it == registry().end() ? nullptr : &it->second;
}

const RuleInfo* find_rule_of_test(std::string_view test_suite_name, std::string_view test_name) {
  const auto slash = test_suite_name.rfind('/');
  const std::string_view suite = slash == std::string_view::npos ? test_suite_name : test_suite_name.substr(slash + 1);
  return find_rule(suite, test_name.substr(0, test_name.find('/')));
}

}  // namespace cuconform
