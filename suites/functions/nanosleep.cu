// 5.4.8.5 __nanosleep(ns) suspends the thread for approximately ns nanoseconds; the maximum sleep duration is
// approximately one millisecond. The PTX instruction it maps to bounds the duration further: it lies in [0, 2 * ns]
// (PTX ISA nanosleep). Durations are measured on the device with %globaltimer around each call, by every lane of a
// warp several times; the fixture is exclusive so that nothing else runs on the GPU meanwhile.
//
// "Approximately" is read as "within a factor of two", in line with the PTX interval.
#include <cuconform/cuconform.h>

#include <algorithm>
#include <vector>

#include "device_timer.h"

namespace {

using cuconform_functions::global_timer_ns;

constexpr unsigned kThreads = 32;
constexpr unsigned kRepeats = 4;
constexpr unsigned long long kMillisecondNs = 1'000'000;
// What a measurement may add to the sleep: two reads of %globaltimer and its update granularity (at most 1 us).
constexpr unsigned long long kMeasurementSlackNs = 2'000;

__global__ void measure_sleep(unsigned ns, unsigned long long* durations) {
  for (unsigned r = 0; r < kRepeats; ++r) {
    const unsigned long long start = global_timer_ns();
    __nanosleep(ns);
    const unsigned long long end = global_timer_ns();
    durations[r * blockDim.x + threadIdx.x] = end - start;
  }
}

class Nanosleep : public cuconform::ExclusiveGpuTest {
 protected:
  // Every measured duration of __nanosleep(ns), sorted.
  std::vector<unsigned long long> measure(unsigned ns) {
    cuconform::DeviceBuffer<unsigned long long> durations(kThreads * kRepeats);
    cuconform::launch(measure_sleep, 1, kThreads, ns, durations.get());
    std::vector<unsigned long long> sorted = durations.to_host();
    std::sort(sorted.begin(), sorted.end());
    return sorted;
  }
};

RULE_F(Nanosleep, SleepsAtMostTwiceTheRequest, "PTX ISA 9.0 nanosleep",
       "__nanosleep(t) suspends the thread for a duration in [0, 2 * t]") {
  for (unsigned ns : {2'000u, 20'000u, 200'000u}) {
    const std::vector<unsigned long long> durations = measure(ns);
    cuconform::record_metric("longest_ns_for_" + std::to_string(ns), static_cast<long long>(durations.back()));
    EXPECT_LE(durations.back(), 2ull * ns + kMeasurementSlackNs) << "__nanosleep(" << ns << ")";
  }
}

RULE_F(Nanosleep, SleepsApproximatelyTheRequest, "5.4.8.5",
       "__nanosleep(ns) suspends the thread for approximately ns nanoseconds (the median within a factor of two)") {
  for (unsigned ns : {20'000u, 200'000u}) {
    const std::vector<unsigned long long> durations = measure(ns);
    const unsigned long long median = durations[durations.size() / 2];
    cuconform::record_metric("median_ns_for_" + std::to_string(ns), static_cast<long long>(median));
    EXPECT_GE(median, ns / 2) << "__nanosleep(" << ns << ")";
    EXPECT_LE(median, 2ull * ns + kMeasurementSlackNs) << "__nanosleep(" << ns << ")";
  }
}

RULE_F(Nanosleep, LongestSleepIsAboutOneMillisecond, "5.4.8.5",
       "the maximum sleep duration of __nanosleep is approximately one millisecond (at most two)") {
  const unsigned requested = 50 * kMillisecondNs;
  const std::vector<unsigned long long> durations = measure(requested);
  cuconform::record_metric("longest_ns_for_50ms", static_cast<long long>(durations.back()));
  EXPECT_LE(durations.back(), 2 * kMillisecondNs + kMeasurementSlackNs) << "__nanosleep(" << requested << ")";
}

}  // namespace
