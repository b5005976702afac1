// Coherence of one location: CoRR, CoRW, CoWR, CoWW.
#define LITMUS_HOSTS_CoRR 1
#define LITMUS_HOSTS_CoRW 1
#define LITMUS_HOSTS_CoWR 1
#define LITMUS_HOSTS_CoWW 1
#include "engine/cases.h"
