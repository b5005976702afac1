#include "layout.h"

#include <cuconform/profile.h>

#include <cstdlib>
#include <stdexcept>

namespace atomics {

std::string name_of(Space space) { return space == Space::Global ? "Global" : "Shared"; }

std::string name_of(Scope scope) {
  switch (scope) {
    case Scope::Thread: return "Thread";
    case Scope::Block: return "Block";
    case Scope::Cluster: return "Cluster";
    case Scope::Device: return "Device";
    case Scope::System: return "System";
  }
  return "?";
}

std::vector<Variant> variants(std::vector<Space> spaces, std::vector<Scope> scopes) {
  std::vector<Variant> all;
  for (Space space : spaces) {
    for (Scope scope : scopes) all.push_back({space, scope});
  }
  return all;
}

Simulation simulation() {
  static const Simulation mode = [] {
    const char* text = std::getenv("CUCONFORM_ATOMICS_SIMULATE");
    const std::string name = text ? text : "";
    if (name.empty()) return Simulation::Off;
    if (name == "serial") return Simulation::Serial;
    if (name == "lost-update") return Simulation::LostUpdate;
    if (name == "wrong-old") return Simulation::WrongOld;
    if (name == "wrong-final") return Simulation::WrongFinal;
    throw std::invalid_argument("CUCONFORM_ATOMICS_SIMULATE must be serial, lost-update, wrong-old or wrong-final");
  }();
  return mode;
}

Contention Contention::scaled_for_profile() const {
  Contention c = *this;
  if (cuconform::full_profile()) {
    c.grid_blocks *= 8;
    c.block_blocks *= 8;
  }
  return c;
}

Layout contention_layout(Variant v, Contention c) {
  const bool spans_grid = v.space == Space::Global && (v.scope == Scope::Device || v.scope == Scope::System);
  if (spans_grid) return {c.grid_blocks, c.grid_threads, c.grid_blocks * c.grid_threads / c.cells};
  return {c.block_blocks, c.block_threads, c.block_threads / c.cells};
}

::testing::AssertionResult EveryCell(const Layout& layout, const std::vector<Value>& initial,
                                     const std::vector<Value>& args, const std::vector<Value>& olds,
                                     const std::vector<Value>& finals, const CellCheck& check) {
  const auto part = [&](const std::vector<Value>& per_thread, unsigned cell) {
    return std::vector<Value>(per_thread.begin() + std::size_t(cell) * layout.group,
                              per_thread.begin() + std::size_t(cell + 1) * layout.group);
  };
  for (unsigned c = 0; c < layout.cells(); ++c) {
    auto result = check(initial[c], part(args, c), part(olds, c), finals[c]);
    if (!result) {
      return ::testing::AssertionFailure()
             << "cell " << c << " of " << layout.cells() << " (" << layout.group << " threads): " << result.message();
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace atomics
