// The host side of the accuracy sweeps (sweep_host.h): inputs, the launch, the MPFR re-check, the verdict.
#include <cuconform/buffer.h>
#include <cuconform/check.h>
#include <cuconform/compiler.h>
#include <cuconform/device.h>
#include <cuconform/gate.h>
#include <cuconform/metric.h>
#include <cuconform/profile.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

#include "deep_inputs.h"
#include "judge.h"
#include "pair_inputs.h"
#include "reference.h"
#include "sweep_host.h"

namespace cuconform::math {
namespace {

// Sampled inputs of one argument type, kept on the host (for the re-check) and on the device.
struct Inputs {
  ArgType type = ArgType::F32;
  std::vector<std::vector<float>> f32;
  std::vector<std::vector<double>> f64;
  std::vector<std::vector<int>> i32;
  std::vector<std::vector<unsigned>> u32;
  std::vector<std::unique_ptr<DeviceBuffer<std::uint32_t>>> device32;
  std::vector<std::unique_ptr<DeviceBuffer<double>>> device64;
  unsigned long long count = 0;

  // Argument k of input i, widened exactly.
  double at(int k, unsigned long long i) const {
    switch (type) {
      case ArgType::F32: return f32[k][i];
      case ArgType::F64: return f64[k][i];
      case ArgType::I32: return i32[k][i];
      case ArgType::U32: return u32[k][i];
    }
    return 0;
  }
};

template <class T>
void upload(const std::vector<std::vector<T>>& host, Inputs& in, LaunchArgs& args) {
  in.count = host[0].size();
  for (std::size_t k = 0; k < host.size(); ++k) {
    if constexpr (sizeof(T) == 4) {
      std::vector<std::uint32_t> bits(host[k].size());
      std::memcpy(bits.data(), host[k].data(), bits.size() * 4);
      in.device32.push_back(std::make_unique<DeviceBuffer<std::uint32_t>>(bits));
      args.arg[k] = in.device32.back()->get();
    } else {
      in.device64.push_back(std::make_unique<DeviceBuffer<double>>(host[k]));
      args.arg[k] = in.device64.back()->get();
    }
  }
}

void sample(const FunctionInfo& f, const Plan& plan, Inputs& in, LaunchArgs& args) {
  in.type = f.arg_type;
  switch (f.arg_type) {
    case ArgType::F32:
      in.f32 = sample_inputs<float>(f.arity, f.focus, f.integer_arg, plan.integers, plan.size, plan.seed);
      return upload(in.f32, in, args);
    case ArgType::F64:
      in.f64 = sample_inputs<double>(f.arity, f.focus, f.integer_arg, plan.integers, plan.size, plan.seed);
      return upload(in.f64, in, args);
    case ArgType::I32:
      in.i32 = sample_inputs<int>(f.arity, f.focus, f.integer_arg, plan.integers, plan.size, plan.seed);
      return upload(in.i32, in, args);
    case ArgType::U32:
      in.u32 = sample_inputs<unsigned>(f.arity, f.focus, f.integer_arg, plan.integers, plan.size, plan.seed);
      return upload(in.u32, in, args);
  }
}

// Input i of an exhaustive sweep, widened: the 32-bit pattern i read as the argument type.
double exhaustive_at(ArgType type, unsigned long long i) {
  const std::uint32_t b = std::uint32_t(i);
  switch (type) {
    case ArgType::F32: return float_from_bits(b);
    case ArgType::I32: return double(std::int32_t(b));
    case ArgType::U32: return double(b);
    case ArgType::F64: break;
  }
  return 0;
}

std::string describe_value(ArgType type, double x) {
  char text[96];
  switch (type) {
    case ArgType::F32: std::snprintf(text, sizeof text, "0x%08" PRIx32 " (%.9g)", bits_of(float(x)), x); break;
    case ArgType::F64: std::snprintf(text, sizeof text, "0x%016" PRIx64 " (%.17g)", bits_of(x), x); break;
    default: std::snprintf(text, sizeof text, "%.0f", x); break;
  }
  return text;
}

std::string describe_inputs(const FunctionInfo& f, const double* d) {
  std::string s;
  for (int k = 0; k < f.arity; ++k) {
    const bool integer = k == f.integer_arg;
    s += (k ? ", " : "") + describe_value(integer ? ArgType::I32 : f.arg_type, d[k]);
  }
  return s;
}

std::string describe_result(int precision, double r) {
  return describe_value(precision == 24 ? ArgType::F32 : ArgType::F64, r);
}

unsigned grid_for(unsigned long long count, unsigned block) {
  const unsigned long long most = 16ull * std::max(1, device().properties.multiProcessorCount);
  return unsigned(std::max(1ull, std::min((count + block - 1) / block, most)));
}

template <class R>
Judgement judge_exact(const Piece& piece, const double* args, double result, const Expected& exact, bool ftz,
                      const Expected* flushed_input) {
  return judge<R>(piece, args, R(result), exact, ftz, flushed_input);
}

constexpr unsigned long long kFirstCapacity = 1ull << 21, kMostCandidates = 1ull << 26;

// One run of a function's filter kernel (sweep.cuh) with room for `capacity` candidates.
struct Filtered {
  SweepStats stats;
  std::vector<Candidate> sent;  // the candidates that fitted
  ErrorProfile profile;         // of the inputs the GPU decided
};

Filtered run_filter(const FunctionInfo& f, LaunchArgs args, unsigned long long capacity) {
  DeviceBuffer<SweepStats> stats(1);
  DeviceBuffer<Candidate> candidates(capacity);
  DeviceBuffer<ErrorProfile> profile(1);  // zeroed
  args.stats = stats.get();
  args.out = candidates.get();
  args.capacity = capacity;
  args.profile = profile.get();
  f.launch(args);
  Filtered run{stats.value_at(0), {}, profile.value_at(0)};
  run.sent = candidates.to_host(std::min(run.stats.candidates, capacity));
  return run;
}

ProfileScale scale_of(ArgType type) {
  switch (type) {
    case ArgType::F32: return ProfileScale::Float;
    case ArgType::F64: return ProfileScale::Double;
    case ArgType::I32: return ProfileScale::Int32;
    case ArgType::U32: return ProfileScale::Uint32;
  }
  return ProfileScale::Float;
}

// Adds the re-check of a block of candidates to the sweep's report.
void merge_into(SweepReport& report, const SweepReport& part) {
  report.rechecked += part.rechecked;
  report.filter_disagreements += part.filter_disagreements;
  report.undecided += part.undecided;
  report.flushed += part.flushed;
  report.exceeded += part.exceeded;
  report.special_mismatches += part.special_mismatches;
  if (part.worst_input != "none" && (part.worst_distance > report.worst_distance || report.worst_input == "none")) {
    report.worst_distance = part.worst_distance;
    report.worst_input = part.worst_input;
  }
  if (part.measured_worst_input != "none" &&
      (part.measured_worst > report.measured_worst || report.measured_worst_input == "none")) {
    report.measured_worst = part.measured_worst;
    report.measured_worst_input = part.measured_worst_input;
  }
  report.worst_error = std::max(report.worst_error, part.worst_error);
  merge_profile(report.profile, part.profile);
  for (const std::string& example : part.examples) {
    if (report.examples.size() < 8) report.examples.push_back(example);
  }
}

// Adds a whole batch's report (a deep sweep's chunk) to the sweep's: its GPU-side counts too.
void merge_chunk(SweepReport& report, const SweepReport& part) {
  report.inputs += part.inputs;
  report.tested += part.tested;
  report.excluded += part.excluded;
  report.measured += part.measured;
  report.lost_candidates += part.lost_candidates;
  merge_into(report, part);
}

const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::Within: return "within the bound";
    case Outcome::Flushed: return "flushed to zero (accepted under -ftz)";
    case Outcome::Exceeds: return "over the bound";
    case Outcome::Undecided: return "undecided";
  }
  return "?";
}

// An audited input the GPU filter decided (sweep.cuh): its verdict must be MPFR's, and for an ulp bound at the same
// distance, since it decides only where its approximation's rounding is unambiguous (filter.h). A disagreement means
// the filter's other verdicts, which nothing re-checks, are not to be trusted either. `f` and `args` name the input,
// written out only for an example: most audited inputs agree.
void audit_filter(const Candidate& candidate, const Piece& piece, const Judgement& exact, const FunctionInfo& f,
                  const double* args, SweepReport& part) {
  const Outcome gpu = static_cast<Outcome>(candidate.judged - 1);
  const bool same = gpu == exact.outcome && (!is_ulp_metric(piece.metric) || candidate.gpu_distance == exact.distance);
  if (same) return;
  ++part.filter_disagreements;
  if (part.examples.size() < 8) {
    part.examples.push_back("audited " + describe_inputs(f, args) + ": the GPU filter judged it " + outcome_name(gpu) +
                            " at " + std::to_string(candidate.gpu_distance) + " ulp, MPFR " +
                            outcome_name(exact.outcome) + " at " + std::to_string(exact.distance) + " ulp");
  }
}

// One launch of the filter over args.count inputs from args.first, and the MPFR re-check of what it sent: the
// report of that batch (without the function's name and time).
SweepReport filter_and_recheck(const FunctionInfo& f, const Bound& bound, LaunchArgs args, bool room_for_all,
                               const std::function<void(unsigned long long, double*)>& arguments_of,
                               const Reference& reference, int reference_id) {
  SweepReport report;
  report.scale = args.scale;
  Filtered filtered = run_filter(f, args, room_for_all ? args.count : kFirstCapacity);
  if (filtered.stats.candidates > filtered.sent.size()) {
    filtered = run_filter(f, args, std::min(filtered.stats.candidates, kMostCandidates));
  }
  const SweepStats& s = filtered.stats;
  const std::vector<Candidate>& sent = filtered.sent;
  report.lost_candidates = s.candidates - sent.size();
  report.inputs = args.count;

  // What the GPU decided.
  report.tested = s.tested;
  report.excluded = s.excluded;
  report.measured = s.measured;
  report.flushed = s.flushed;
  report.worst_error = double_from_bits(s.worst_error_bits);
  report.profile = filtered.profile;
  double d[4] = {};
  if (s.worst) {
    arguments_of(args.first + (s.worst & 0xffffffffu), d);
    report.worst_distance = s.worst >> 32;
    report.worst_input = describe_inputs(f, d);
  }
  if (s.measured_worst) {
    arguments_of(args.first + (s.measured_worst & 0xffffffffu), d);
    report.measured_worst = s.measured_worst >> 32;
    report.measured_worst_input = describe_inputs(f, d);
  }

  // The exact re-check of what it sent.
  const int precision = f.result_precision;
  auto recheck = [&](const Candidate& candidate, SweepReport& part) {
    double dargs[4] = {};
    arguments_of(candidate.index, dargs);
    const Piece* piece = piece_for(bound, dargs);
    const ReferenceValue v = reference.eval(reference_id, dargs, precision, bound.rounding);
    const double y = candidate.result;
    const Expected exact{v.rounded, false, v.hi, v.lo};
    Expected at_flushed{};
    const Expected* flushed_input = nullptr;
    bool decided = v.decided;
    if (f.ftz) {
      bool any = false;
      double df[4];
      for (int k = 0; k < 4; ++k) any |= is_subnormal_float(dargs[k]), df[k] = flush_subnormal(dargs[k]);
      if (any) {
        const ReferenceValue fv = reference.eval(reference_id, df, precision, bound.rounding);
        at_flushed = {fv.rounded, false, fv.hi, fv.lo};
        flushed_input = &at_flushed;
        decided = decided && fv.decided;
      }
    }
    const Judgement j = precision == 24 ? judge_exact<float>(*piece, dargs, y, exact, f.ftz, flushed_input)
                                        : judge_exact<double>(*piece, dargs, y, exact, f.ftz, flushed_input);
    ++part.rechecked;
    if (!decided) {
      ++part.undecided;
      if (part.examples.size() < 8) part.examples.push_back("reference undecided at " + describe_inputs(f, dargs));
      return;
    }
    if (candidate.judged) audit_filter(candidate, *piece, j, f, dargs, part);
    const int bucket = profile_bucket(dargs[f.integer_arg == 0 ? 1 : 0], report.scale);  // jn, yn: by x
    if (piece->metric == Metric::Measured) {
      add_to_profile(part.profile, bucket, j.distance, j.error);
      if (j.distance > part.measured_worst || part.measured_worst_input == "none") {
        part.measured_worst = j.distance;
        part.measured_worst_input = describe_inputs(f, dargs);
      }
      return;
    }
    if (j.outcome == Outcome::Flushed) {
      ++part.flushed;
      return;
    }
    auto is_exactly = [&](double want) {
      return precision == 24 ? identical(float(y), float(want)) : identical(y, want);
    };
    // -ftz=true: a subnormal argument may be read as zero (the special case at the flushed arguments, e.g.
    // hypotf(0, 0x1p-149) = +0) and a subnormal result written as zero.
    const double smallest_normal = precision == 24 ? 0x1p-126 : 0x1p-1022;
    const bool flushed_special = f.ftz && ((flushed_input && is_exactly(flushed_input->rounded)) ||
                                           (y == 0 && v.rounded != 0 && std::fabs(v.rounded) < smallest_normal));
    const bool special_differs =
        special_case_applies(bound, dargs, f.arity, v.rounded) && !is_exactly(v.rounded) && !flushed_special;
    if (special_differs) {
      ++part.special_mismatches;
      if (part.examples.size() < 8) {
        part.examples.push_back("special value " + describe_inputs(f, dargs) + ": result " +
                                describe_result(precision, y) + ", expected " + describe_result(precision, v.rounded));
      }
    }
    add_to_profile(part.profile, bucket, j.distance, j.error);
    if (j.distance > part.worst_distance || part.worst_input == "none") {
      part.worst_distance = j.distance;
      part.worst_input = describe_inputs(f, dargs);
    }
    part.worst_error = std::max(part.worst_error, j.error);
    if (j.outcome == Outcome::Exceeds) {
      ++part.exceeded;
      if (part.examples.size() < 8) {
        char error[48];
        std::snprintf(error, sizeof error, "%.6g", j.error);
        part.examples.push_back(describe_inputs(f, dargs) + ": result " + describe_result(precision, y) +
                                ", correctly rounded " + describe_result(precision, v.rounded) + ", " +
                                std::to_string(j.distance) + " ulp apart, error " + error);
      }
    }
  };
  // In blocks, each with its own partial report, so that the threads meet once per block rather than once per
  // candidate (j1f sends 2^24); at least a thousand blocks where there are that many candidates, to share them out.
  const std::size_t block_size = std::clamp<std::size_t>(sent.size() / 1024, 1, 256);
  std::mutex merge;
  parallel_for((sent.size() + block_size - 1) / block_size, reference.thread_safe(), [&](std::size_t block) {
    SweepReport part;
    const std::size_t end = std::min(sent.size(), (block + 1) * block_size);
    for (std::size_t n = block * block_size; n < end; ++n) recheck(sent[n], part);
    std::lock_guard<std::mutex> lock(merge);
    merge_into(report, part);
  });
  return report;
}

// The deep sweep's journal (CUCONFORM_MATH_DEEP_JOURNAL): one line per finished chunk, keyed by function, bound,
// seed, size and chunk, holding the chunk's report; a rerun merges the chunks it finds instead of running them.
class Journal {
 public:
  Journal() {
    const char* path = std::getenv("CUCONFORM_MATH_DEEP_JOURNAL");
    if (!path || !*path) return;
    path_ = path;
    std::ifstream in(path_);
    std::string line;
    while (std::getline(in, line)) {
      const std::size_t tab = line.find('\t');
      if (tab != std::string::npos) done_[line.substr(0, tab)] = line.substr(tab + 1);
    }
  }
  const std::string* find(const std::string& key) const {
    const auto it = done_.find(key);
    return it == done_.end() ? nullptr : &it->second;
  }
  void append(const std::string& key, const std::string& record) {
    if (path_.empty()) return;
    std::ofstream out(path_, std::ios::app);
    out << key << '\t' << record << '\n';
    out.flush();
  }

 private:
  std::string path_;
  std::map<std::string, std::string> done_;
};

// A chunk's report as one line of tab-separated fields, and back. Strings hold no tabs or newlines (inputs and
// values as describe_inputs writes them); examples are separated by \x1f.
std::string serialize(const SweepReport& r) {
  std::ostringstream out;
  out << r.tested << '\t' << r.excluded << '\t' << r.measured << '\t' << r.flushed << '\t' << r.rechecked << '\t'
      << r.exceeded << '\t' << r.undecided << '\t' << r.special_mismatches << '\t' << r.lost_candidates << '\t'
      << r.worst_distance << '\t' << r.worst_input << '\t' << bits_of(r.worst_error) << '\t' << r.measured_worst << '\t'
      << r.measured_worst_input << '\t' << r.inputs << '\t' << r.filter_disagreements << '\t';
  for (std::size_t i = 0; i < r.examples.size(); ++i) out << (i ? "\x1f" : "") << r.examples[i];
  for (int b = 0; b < kProfileBuckets; ++b) {
    out << '\t' << r.profile.distance[b] << ',' << r.profile.error_bits[b] << ',' << r.profile.inputs[b];
  }
  return out.str();
}

bool deserialize(const std::string& line, SweepReport& r) {
  std::vector<std::string> f;
  std::size_t at = 0;
  for (std::size_t tab; (tab = line.find('\t', at)) != std::string::npos; at = tab + 1)
    f.push_back(line.substr(at, tab - at));
  f.push_back(line.substr(at));
  if (f.size() != 17 + kProfileBuckets) return false;  // an older journal's line: the chunk runs again
  auto u = [&](int i) { return std::strtoull(f[i].c_str(), nullptr, 10); };
  r.tested = u(0), r.excluded = u(1), r.measured = u(2), r.flushed = u(3), r.rechecked = u(4), r.exceeded = u(5);
  r.undecided = u(6), r.special_mismatches = u(7), r.lost_candidates = u(8), r.worst_distance = u(9);
  r.worst_input = f[10];
  r.worst_error = double_from_bits(u(11));
  r.measured_worst = u(12);
  r.measured_worst_input = f[13];
  r.inputs = u(14), r.filter_disagreements = u(15);
  r.examples.clear();
  for (std::size_t from = 0; !f[16].empty();) {
    const std::size_t sep = f[16].find('\x1f', from);
    r.examples.push_back(f[16].substr(from, sep == std::string::npos ? std::string::npos : sep - from));
    if (sep == std::string::npos) break;
    from = sep + 1;
  }
  for (int b = 0; b < kProfileBuckets; ++b) {
    unsigned long long d = 0, e = 0, n = 0;
    if (std::sscanf(f[17 + b].c_str(), "%llu,%llu,%llu", &d, &e, &n) != 3) return false;
    r.profile.distance[b] = d, r.profile.error_bits[b] = e, r.profile.inputs[b] = n;
  }
  return true;
}

// The bound's identity in a journal key: its pieces, rounding and special-value rule, field by field.
std::string bound_key(const Bound& bound) {
  std::uint64_t h = 1469598103934665603ull;
  auto add = [&](std::uint64_t v) { h = (h ^ v) * 1099511628211ull; };
  for (int i = 0; i < bound.count; ++i) {
    const Piece& p = bound.pieces[i];
    add(std::uint64_t(p.condition)), add(std::uint64_t(p.arg)), add(bits_of(p.a)), add(bits_of(p.b));
    add(std::uint64_t(p.metric)), add(bits_of(p.limit)), add(bits_of(p.slope));
  }
  add(std::uint64_t(bound.rounding)), add(std::uint64_t(bound.special_values));
  char text[24];
  std::snprintf(text, sizeof text, "%016" PRIx64, h);
  return text;
}

constexpr unsigned long long kDeepChunk = 1ull << 28;
constexpr unsigned long long kPairChunk = 1ull << 28;

SweepReport sweep(const FunctionInfo& f, const Bound& bound, const Plan& plan, const Reference& reference,
                  int reference_id) {
  const auto start = std::chrono::steady_clock::now();
  Inputs inputs;
  LaunchArgs args{};
  if (plan.exhaustive) {
    inputs.count = 1ull << 32;
    args.exhaustive = true;
  } else if (plan.deep) {
    inputs.count = plan.deep_inputs;
    args.deep = true;
    args.seed = plan.seed;
  } else if (plan.random_pairs) {
    inputs.count = kRandomPairs;
    args.random_pairs = true;
    args.seed = pair_seed(plan.seed, f.name);
  } else {
    sample(f, plan, inputs, args);
  }
  args.bound = bound;
  args.audit_stride = plan.audit_stride;
  args.block = 256;
  args.scale = scale_of(f.arg_type);
  auto arguments_of = [&](unsigned long long index, double* d) {
    if (plan.random_pairs) {
      const FloatPair p = random_pair(index, f.focus, args.seed);
      d[0] = p.x, d[1] = p.y;
      return;
    }
    for (int k = 0; k < f.arity; ++k) {
      d[k] = plan.deep         ? deep_input(index, k, f.focus, plan.seed)
             : plan.exhaustive ? exhaustive_at(f.arg_type, index)
                               : inputs.at(k, index);
    }
  };
  // A sampled sweep keeps room for every input: in the directed modes a double sum that lands on a float cannot be
  // decided on the GPU, so __fadd_rd and its kin send about 70% of their inputs (3.6 of 5.2 million in the full
  // profile). An exhaustive or deep sweep cannot hold all its inputs, so it first makes room for 2^21; when it sent
  // more, it runs once more with room for every one it sent (the filter is deterministic: the same inputs come
  // again). j1f and cyl_bessel_i1f need that: below 2^-125 their double approximation is exactly x/2, a rounding
  // midpoint for half of those inputs (2^24 in all), while the exact value lies just inside it. Past
  // kMostCandidates inputs are lost, and losing any fails the rule (lost_candidates).
  const bool room_for_all = !((f.filtered && (plan.exhaustive || plan.random_pairs)) || plan.deep);
  SweepReport report;
  if (plan.random_pairs) {
    // In chunks of 2^28 pairs, each filtered and re-checked before the next, so that no chunk sends more than the
    // candidate buffer holds: x + y, x - y and fdimf send 1 to 3% of their pairs, exact ties included (a double sum
    // on a float midpoint, which only MPFR may call a tie), up to 1.2 x 10^8 per 2^32 (about 2 s of MPFR).
    report.scale = args.scale;
    report.exhaustive = true;
    char seed[24];
    std::snprintf(seed, sizeof seed, "0x%016" PRIx64, args.seed);
    report.exhaustive_inputs =
        "2^32 random pairs (" + std::to_string(kRandomPairs) + " generated, seed " + seed + ", pair_inputs.h)";
    for (unsigned long long first = 0; first < kRandomPairs; first += kPairChunk) {
      args.first = first;
      args.count = std::min(kPairChunk, kRandomPairs - first);
      args.blocks = grid_for(args.count, args.block);
      merge_chunk(report, filter_and_recheck(f, bound, args, room_for_all, arguments_of, reference, reference_id));
    }
  } else if (!plan.deep) {
    args.count = inputs.count;
    args.blocks = grid_for(args.count, args.block);
    report = filter_and_recheck(f, bound, args, room_for_all, arguments_of, reference, reference_id);
    report.exhaustive = plan.exhaustive;
  } else {
    // In chunks of 2^28 inputs, each journaled once re-checked, so that an interrupted run resumes where it stopped.
    static Journal journal;
    report.scale = args.scale;
    report.exhaustive = true;
    report.exhaustive_inputs = "deep sweep: " + std::to_string(plan.deep_inputs) + " generated inputs (seed " +
                               std::to_string(plan.seed) + ", deep_inputs.h)";
    const std::string prefix = std::string(f.name) + "/" + bound_key(bound) + "/" + std::to_string(plan.seed) + "/" +
                               std::to_string(plan.deep_inputs) + "/";
    for (unsigned long long first = 0; first < plan.deep_inputs; first += kDeepChunk) {
      const std::string key = prefix + std::to_string(first / kDeepChunk);
      SweepReport part;
      const std::string* done = journal.find(key);
      if (!done || !deserialize(*done, part)) {
        args.first = first;
        args.count = std::min(kDeepChunk, plan.deep_inputs - first);
        args.blocks = grid_for(args.count, args.block);
        part = filter_and_recheck(f, bound, args, room_for_all, arguments_of, reference, reference_id);
        journal.append(key, serialize(part));
      }
      merge_chunk(report, part);
    }
  }
  report.function = plan.random_pairs ? std::string(f.name) + ".random_pairs" : std::string(f.name);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace

bool deep_profile() {
  const char* deep = std::getenv("CUCONFORM_MATH_DEEP");
  return deep && *deep && std::string(deep) != "0";
}

namespace {

unsigned long long deep_input_count() {
  const char* text = std::getenv("CUCONFORM_MATH_DEEP_INPUTS");
  const unsigned long long n = text && *text ? std::strtoull(text, nullptr, 0) : 0;
  return n ? n : 1ull << 32;
}

}  // namespace

Plan default_plan(const FunctionInfo& f) {
  Plan plan;
  const bool full = full_profile();
  const bool narrow = f.arg_type != ArgType::F64;
  if (deep_profile() && f.deep) {
    plan.deep = true;
    plan.deep_inputs = deep_input_count();
    plan.audit_stride = 1ull << 20;  // 4096 audited inputs per 2^32
  } else if (f.arity == 1 && narrow && f.filtered && full) {
    plan.exhaustive = true;
    plan.audit_stride = 1ull << 16;  // 65536 audited inputs per function
  } else if (f.filtered) {
    plan.size = full ? SampleSize{1u << 22, 1u << 20, 1, 1u << 14} : SampleSize{1u << 13, 1u << 11, 2, 512};
    plan.audit_stride = full ? 1024 : 64;
  } else {
    plan.size = full ? SampleSize{1u << 16, 1u << 15, 1, 1u << 12} : SampleSize{768, 512, 32, 256};
  }
  return plan;
}

Plan random_pairs_plan() {
  Plan plan;
  plan.random_pairs = true;
  plan.audit_stride = 1ull << 16;  // 65536 audited pairs per function, as for the unary exhaustive sweeps
  return plan;
}

void run_accuracy(std::initializer_list<FunctionInfo> functions, const Bound& bound, std::vector<int> orders) {
  for (const FunctionInfo& f : functions) {
    if (f.compiled_out) SKIP_COMPILED_OUT(f.compiled_out);
  }
  if (deep_profile()) {
    bool any = false;
    for (const FunctionInfo& f : functions) any |= f.deep;
    if (!any) {
      GTEST_SKIP() << "CUCONFORM_MATH_DEEP is set and no function of this rule has a double-double reference for the "
                      "deep sweep yet (double_double.h); the rule runs in the quick and full profiles";
    }
  }
  std::string why;
  const Reference* reference = Reference::get(&why);
  if (!reference) GTEST_SKIP() << why;
  for (const FunctionInfo& f : functions) {
    const int id = reference->find(f.reference);
    ASSERT_GE(id, 0) << "the reference library has no '" << f.reference << "'";
    Plan plan = default_plan(f);
    if (!orders.empty()) plan.integers = orders;  // the orders n the bound is documented for
    const SweepReport report = sweep(f, bound, plan, *reference, id);
    record(report, bound);
    expect_within_bound(report);
    // The full profile adds 2^32 random pairs to the samples of a function of two floats (issue 31).
    if (full_profile() && !plan.deep && takes_random_pairs(f, bound)) {
      const SweepReport pairs = sweep(f, bound, random_pairs_plan(), *reference, id);
      record(pairs, bound);
      expect_within_bound(pairs);
    }
  }
}

void run_identical(std::initializer_list<IdenticalPair> pairs) {
  for (const IdenticalPair& pair : pairs) {
    const FunctionInfo& f = pair.function;
    const auto start = std::chrono::steady_clock::now();
    const Plan plan = default_plan(f);
    Inputs inputs;
    LaunchArgs args{};
    if (plan.exhaustive) {
      inputs.count = 1ull << 32;
      args.exhaustive = true;
    } else {
      sample(f, plan, inputs, args);
    }
    args.count = inputs.count;
    args.block = 256;
    args.blocks = grid_for(args.count, args.block);
    DeviceBuffer<unsigned long long> counters(3);  // zeroed
    CUDA_CHECK(cudaMemset(counters.get() + 1, 0xff, sizeof(unsigned long long)));
    pair.launch(args, counters.get());
    const std::vector<unsigned long long> c = counters.to_host();
    const std::string name = std::string(f.name) + "_vs_" + pair.intrinsic.name;
    record_metric(name + ".inputs_tested", static_cast<long long>(inputs.count));
    record_metric(name + ".mismatches", static_cast<long long>(c[0]));
    std::string first = "none";
    if (c[0]) {
      double d[4] = {};
      for (int k = 0; k < f.arity; ++k) d[k] = plan.exhaustive ? exhaustive_at(f.arg_type, c[1]) : inputs.at(k, c[1]);
      first = describe_inputs(f, d);
    }
    record_metric(name + ".first_mismatch", first);
    record_metric(name + ".seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    EXPECT_EQ(c[2], inputs.count) << f.name << " and " << pair.intrinsic.name << " were compared on " << c[2] << " of "
                                  << inputs.count << " inputs";
    EXPECT_EQ(c[0], 0u) << f.name << " differs from " << pair.intrinsic.name << " on " << c[0] << " of " << inputs.count
                        << " inputs; first at " << first;
  }
}

}  // namespace cuconform::math
