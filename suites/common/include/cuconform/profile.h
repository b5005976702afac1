// Run profiles: `quick` (the default, for every commit) and `full` (nightly: exhaustive sweeps, long litmus runs).
// The harness passes the profile to the binaries in the environment variable CUCONFORM_PROFILE.
#pragma once

namespace cuconform {

enum class Profile { Quick, Full };

Profile profile();
inline bool full_profile() { return profile() == Profile::Full; }

}  // namespace cuconform
