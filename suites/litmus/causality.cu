// Shapes of three and four threads: IRIW (multi-copy atomicity), WRC and ISA2 (cumulativity).
#define LITMUS_HOSTS_IRIW 1
#define LITMUS_HOSTS_WRC 1
#define LITMUS_HOSTS_ISA2 1
#include "engine/cases.h"
