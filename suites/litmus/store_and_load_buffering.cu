// Store buffering (SB), load buffering (LB), and the write-write shapes S, R and 2+2W.
#define LITMUS_HOSTS_SB 1
#define LITMUS_HOSTS_LB 1
#define LITMUS_HOSTS_S 1
#define LITMUS_HOSTS_R 1
#define LITMUS_HOSTS_TwoPlusTwoW 1
#include "engine/cases.h"
