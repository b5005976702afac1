#include "verdict.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "plan.h"

namespace litmus {
namespace {

uint64_t at(const Tally& t, uint32_t bin) { return bin < t.bins.size() ? t.bins[bin] : 0; }

uint64_t total(const Tally& t) {
  uint64_t sum = 0;
  for (uint64_t n : t.bins) sum += n;
  return sum;
}

// The first problem no variant allows (an engine error or an outcome that is never allowed), or "".
std::string never_allowed(const Case& c, const Tally& t, const char* who) {
  const Outcomes& o = c.shape->outcomes;
  std::ostringstream out;
  if (at(t, o.incomplete_bin()) != 0) {
    out << "engine error: in " << who << " " << c.name << ", " << at(t, o.incomplete_bin()) << " of " << t.instances
        << " instances had a role that never ran";
    return out.str();
  }
  // GPU partners are co-resident (the runner sizes the grid so), so a partner that never arrives means the barrier
  // itself is broken: those instances never ran the shape together, and a pass built on them would mean nothing. The
  // host thread's partner can be descheduled for longer than its spin limit, so its timeouts stay a metric.
  if (t.barrier_timeouts != 0 && c.placement != Placement::HostThread) {
    out << "engine error: in " << who << " " << c.name << ", " << t.barrier_timeouts << " of " << t.instances
        << " instances gave up waiting at the spin barrier (partners not co-resident, or a poll that never sees the "
           "counter)";
    return out.str();
  }
  if (total(t) != t.instances) {
    out << "engine error: " << who << " " << c.name << " classified " << total(t) << " instances, ran " << t.instances;
    return out.str();
  }
  for (uint32_t bin = 0; bin < o.bins(); ++bin) {
    if (at(t, bin) == 0 || !o.never(bin)) continue;
    out << who << " " << c.name << " saw outcome " << outcome_name(*c.shape, bin) << " " << at(t, bin) << " times in "
        << t.instances << " instances; no ordering allows it"
        << (bin == o.other_bin() ? " (a value no thread wrote)" : " (a coherence violation)");
    return out.str();
  }
  return "";
}

}  // namespace

std::string outcome_name(const ShapeInfo& shape, uint32_t bin) {
  const Outcomes& o = shape.outcomes;
  if (bin == o.other_bin()) return "other";
  if (bin == o.incomplete_bin()) return "incomplete";
  int32_t value[kMaxObservables] = {};
  o.values_of(bin, value);
  std::string name;
  for (uint32_t k = 0; k < o.observables; ++k) {
    if (k) name += ",";
    name += std::string(shape.observable_names[k]) + ":" + std::to_string(value[k]);
  }
  return name;
}

uint64_t weak_count(const Case& c, const Tally& t) { return at(t, c.shape->outcomes.weak_bin()); }

double per_second(uint64_t count, const Tally& t) { return t.gpu_ms > 0 ? count * 1000.0 / t.gpu_ms : 0.0; }

Verdict judge(const Case& c, const Tally& test, const Case* sibling, const Tally* sibling_tally) {
  Verdict v;
  if (std::string problem = never_allowed(c, test, "test"); !problem.empty()) {
    v.kind = Verdict::Kind::Fail;
    v.message = problem;
    return v;
  }
  const uint64_t weak = weak_count(c, test);
  if (c.expect == Expect::Forbidden && weak != 0) {
    std::ostringstream out;
    out << "forbidden outcome " << outcome_name(*c.shape, c.shape->outcomes.weak_bin()) << " of " << c.shape->name
        << " seen " << weak << " times in " << test.instances << " instances (" << c.name << "; " << c.source << ")";
    v.kind = Verdict::Kind::Fail;
    v.message = out.str();
    return v;
  }
  if (sibling && sibling_tally) {
    if (std::string problem = never_allowed(*sibling, *sibling_tally, "sibling"); !problem.empty()) {
      v.kind = Verdict::Kind::Fail;
      v.message = problem;
      return v;
    }
  }
  if (c.expect == Expect::Forbidden) {
    if (!sibling || !sibling_tally) {
      v.kind = Verdict::Kind::Fail;
      v.message = "engine error: forbidden case " + c.name + " has no sibling '" + c.sibling + "'";
      return v;
    }
    const uint64_t sibling_weak = weak_count(*sibling, *sibling_tally);
    if (sibling_weak == 0) {
      std::ostringstream out;
      const std::string weak_outcome = outcome_name(*sibling->shape, sibling->shape->outcomes.weak_bin());
      if (in_one_block(c.placement)) {
        // Inside one block the hardware may simply never reorder: say so, with the count that supports it.
        out << "not observable on this GPU: 0 weak outcomes (" << weak_outcome << ") in " << sibling_tally->instances
            << " instances of the unfenced sibling " << sibling->name << " (placement " << name_of(c.placement) << ": "
            << where_partners_are(c.placement) << ")";
      } else {
        out << "inconclusive: sibling " << sibling->name << " saw 0 weak outcomes (" << weak_outcome << ") in "
            << sibling_tally->instances << " instances";
      }
      v.kind = Verdict::Kind::Inconclusive;
      v.message = out.str();
      return v;
    }
  }
  return v;
}

std::string histogram_table(const Case& c, const Tally& test, const Case* sibling, const Tally* sibling_tally) {
  std::ostringstream out;
  const bool twin = sibling && sibling_tally;
  const auto row = [&out](const std::string& outcome, const std::string& a, const std::string& b) {
    char line[256];
    std::snprintf(line, sizeof line, "  %-28s %24s %24s\n", outcome.c_str(), a.c_str(), b.c_str());
    out << line;
  };
  row("outcome", c.name.substr(0, 24), twin ? sibling->name.substr(0, 24) : "");
  row("", c.expect == Expect::Forbidden ? "(weak forbidden)" : "(weak allowed)", twin ? "(weak allowed)" : "");
  if (!twin || sibling->shape == c.shape) {
    const Outcomes& o = c.shape->outcomes;
    for (uint32_t bin = 0; bin < o.bins(); ++bin) {
      if (bin >= o.value_bins() && at(test, bin) == 0 && (!twin || at(*sibling_tally, bin) == 0)) continue;
      std::string name = outcome_name(*c.shape, bin);
      if (bin == o.weak_bin()) name += " (weak)";
      row(name, std::to_string(at(test, bin)), twin ? std::to_string(at(*sibling_tally, bin)) : "");
    }
  } else {
    // A sibling of another shape (the coherence tests): one column after the other.
    for (const auto& [k, tally] : {std::make_pair(&c, &test), std::make_pair(sibling, sibling_tally)}) {
      const Outcomes& o = k->shape->outcomes;
      for (uint32_t bin = 0; bin < o.bins(); ++bin) {
        if (bin >= o.value_bins() && at(*tally, bin) == 0) continue;
        std::string name = std::string(k->shape->name) + " " + outcome_name(*k->shape, bin);
        if (bin == o.weak_bin()) name += " (weak)";
        row(name, k == &c ? std::to_string(at(*tally, bin)) : "", k == &c ? "" : std::to_string(at(*tally, bin)));
      }
    }
  }
  row("instances", std::to_string(test.instances), twin ? std::to_string(sibling_tally->instances) : "");
  char rate[64];
  std::snprintf(rate, sizeof rate, "%.0f", per_second(weak_count(c, test), test));
  std::string twin_rate;
  if (twin) {
    char r[64];
    std::snprintf(r, sizeof r, "%.0f", per_second(weak_count(*sibling, *sibling_tally), *sibling_tally));
    twin_rate = r;
  }
  row("weak per second", rate, twin_rate);
  return out.str();
}

}  // namespace litmus
