// The probe kernels of ordering.h. Each runs as one thread.
#include "ordering.h"

namespace ordering {

__global__ void ticket_after(Log* log, int op, unsigned long long delay_ns) {
  sleep_for(delay_ns);
  take_ticket(log, op);
}

__global__ void ticket_after_flag(Log* log, int op, const volatile int* flag, unsigned long long timeout_ns) {
  // The flag read again after the wait, not a constant: a wait that ended without seeing it set records 0.
  log->op[op].saw = wait_for(flag, timeout_ns) ? *flag : 0;
  take_ticket(log, op);
}

__global__ void set_flag_and_ticket(Log* log, int op, volatile int* flag, const volatile int* watch) {
  log->op[op].saw = *watch;
  __threadfence_system();
  *flag = 1;
  __threadfence_system();
  take_ticket(log, op);
}

__global__ void read_and_ticket(Log* log, int op, const volatile int* watch) {
  log->op[op].saw = *watch;
  take_ticket(log, op);
}

__global__ void gated_then_done(const volatile int* gate, volatile int* done, unsigned long long timeout_ns) {
  const bool opened = wait_for(gate, timeout_ns);
  __threadfence_system();
  *done = opened ? 1 : 2;
}

__global__ void sleep_then_write(volatile int* done, int value, unsigned long long delay_ns) {
  sleep_for(delay_ns);
  __threadfence_system();
  *done = value;
}

void preload_probe_kernels() {
  preload(ticket_after, ticket_after_flag, set_flag_and_ticket, read_and_ticket, gated_then_done, sleep_then_write);
}

}  // namespace ordering
