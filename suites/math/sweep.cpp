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
#include <memory>
#include <mutex>

#include "judge.h"
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

SweepReport sweep(const FunctionInfo& f, const Bound& bound, const Plan& plan, const Reference& reference,
                  int reference_id) {
  const auto start = std::chrono::steady_clock::now();
  SweepReport report;
  report.function = f.name;
  report.exhaustive = plan.exhaustive;

  Inputs inputs;
  LaunchArgs args{};
  if (plan.exhaustive) {
    inputs.count = 1ull << 32;
    args.exhaustive = true;
  } else {
    sample(f, plan, inputs, args);
  }
  args.count = inputs.count;
  args.bound = bound;
  args.audit_stride = plan.audit_stride;
  args.block = 256;
  args.blocks = grid_for(args.count, args.block);
  args.scale = report.scale = scale_of(f.arg_type);
  // A sampled sweep keeps room for every input: in the directed modes a double sum that lands on a float cannot be
  // decided on the GPU, so __fadd_rd and its kin send about 70% of their inputs (3.6 of 5.2 million in the full
  // profile). An exhaustive sweep cannot hold all 2^32, so it first makes room for 2^21; when it sent more, it runs
  // once more with room for every one it sent (the filter is deterministic: the same inputs come again). j1f and
  // cyl_bessel_i1f need that: below 2^-125 their double approximation is exactly x/2, a rounding midpoint for
  // half of those inputs (2^24 in all), while the exact value lies just inside it. Past kMostCandidates inputs are
  // lost, and losing any fails the rule (lost_candidates).
  const bool room_for_all = !(f.filtered && plan.exhaustive);
  Filtered filtered = run_filter(f, args, room_for_all ? inputs.count : kFirstCapacity);
  if (filtered.stats.candidates > filtered.sent.size()) {
    filtered = run_filter(f, args, std::min(filtered.stats.candidates, kMostCandidates));
  }
  const SweepStats& s = filtered.stats;
  const std::vector<Candidate>& sent = filtered.sent;
  report.lost_candidates = s.candidates - sent.size();

  auto arguments_of = [&](unsigned long long index, double* d) {
    for (int k = 0; k < f.arity; ++k) d[k] = plan.exhaustive ? exhaustive_at(f.arg_type, index) : inputs.at(k, index);
  };
  // What the GPU decided.
  report.tested = s.tested;
  report.excluded = s.excluded;
  report.measured = s.measured;
  report.flushed = s.flushed;
  report.worst_error = double_from_bits(s.worst_error_bits);
  report.profile = filtered.profile;
  double d[4] = {};
  if (s.worst) {
    arguments_of(s.worst & 0xffffffffu, d);
    report.worst_distance = s.worst >> 32;
    report.worst_input = describe_inputs(f, d);
  }
  if (s.measured_worst) {
    arguments_of(s.measured_worst & 0xffffffffu, d);
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
    const bool special_differs = special_case_applies(bound, dargs, f.arity, v.rounded) &&
                                 !(precision == 24 ? identical(float(y), float(v.rounded)) : identical(y, v.rounded));
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
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace

Plan default_plan(const FunctionInfo& f) {
  Plan plan;
  const bool full = full_profile();
  const bool narrow = f.arg_type != ArgType::F64;
  if (f.arity == 1 && narrow && f.filtered && full) {
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

void run_accuracy(std::initializer_list<FunctionInfo> functions, const Bound& bound, std::vector<int> orders) {
  for (const FunctionInfo& f : functions) {
    if (f.compiled_out) SKIP_COMPILED_OUT(f.compiled_out);
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
    EXPECT_GT(report.tested, 0u) << f.name << ": no input is covered by the bound";
    std::string examples;
    for (const std::string& e : report.examples) examples += "\n  " + e;
    EXPECT_EQ(report.exceeded, 0u) << f.name << ": " << report.exceeded << " of " << report.tested
                                   << " inputs exceed the documented bound" << examples;
    EXPECT_EQ(report.special_mismatches, 0u)
        << f.name << ": " << report.special_mismatches
        << " inputs with a special argument (±0, ±inf, NaN) differ from the exact special-case result" << examples;
    EXPECT_EQ(report.undecided, 0u) << f.name << ": the reference could not decide" << examples;
    EXPECT_EQ(report.lost_candidates, 0u)
        << f.name << ": " << report.lost_candidates << " suspicious inputs were not re-checked";
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
    DeviceBuffer<unsigned long long> counters(2);
    CUDA_CHECK(cudaMemset(counters.get() + 1, 0xff, sizeof(unsigned long long)));
    pair.launch(args, counters.get(), counters.get() + 1);
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
    EXPECT_EQ(c[0], 0u) << f.name << " differs from " << pair.intrinsic.name << " on " << c[0] << " of "
                        << inputs.count << " inputs; first at " << first;
  }
}

}  // namespace cuconform::math
