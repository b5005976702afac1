// Message passing: MP and the Programming Guide's own fence example (5.4.4.3), with every ordering the case table
// (spec/litmus/outcomes.toml) runs them with.
#define LITMUS_HOSTS_MP 1
#define LITMUS_HOSTS_GuideXY 1
#include "engine/cases.h"
