#include "case.h"

#include <algorithm>
#include <map>
#include <ostream>

#include "plan.h"

namespace litmus {
namespace {

// Registration runs during static initialization, from several translation units: a function-local registry.
std::map<std::string, Case>& registry() {
  static std::map<std::string, Case> cases;
  return cases;
}

std::vector<std::string>& duplicates() {
  static std::vector<std::string> names;
  return names;
}

}  // namespace

int register_case(Case c) {
  const std::string name = c.name;
  if (registry().count(name)) duplicates().push_back(name);
  registry()[name] = std::move(c);
  return static_cast<int>(registry().size());
}

std::vector<std::string> duplicate_cases() { return duplicates(); }

void PrintTo(const Case* c, std::ostream* out) {
  *out << c->shape->name << " (" << c->shape->code << ") at " << name_of(c->placement) << " with " << c->ordering
       << ": weak outcome " << (c->expect == Expect::Forbidden ? "forbidden" : "allowed");
  if (!c->sibling.empty()) *out << ", sibling " << c->sibling;
}

const Case* find_case(const std::string& name) {
  auto found = registry().find(name);
  return found == registry().end() ? nullptr : &found->second;
}

std::vector<const Case*> all_cases() {
  std::vector<const Case*> out;
  for (const auto& [name, c] : registry()) out.push_back(&c);
  return out;
}

std::vector<const Case*> cases_of_rule(const std::string& rule) {
  std::vector<const Case*> out;
  for (const auto& [name, c] : registry()) {
    if (c.rule == rule) out.push_back(&c);
  }
  return out;
}

}  // namespace litmus
