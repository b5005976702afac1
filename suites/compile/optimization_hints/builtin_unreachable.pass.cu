// rule: BuiltinUnreachable.AvailableInDeviceCode
// section: 5.4.9.5
// statement: __builtin_unreachable() is available in device code, e.g. as the default of a switch whose other
//   cases are exhaustive
__device__ constexpr int pick(int in) {
  switch (in) {
    case 1: return 4;
    case 2: return 10;
    default: __builtin_unreachable();
  }
}

__global__ void kernel(const int* in, int* out) { *out = pick(*in); }

// The reachable cases keep their values (a constant expression in device code).
__device__ void values_in_device_code() { static_assert(pick(1) == 4 && pick(2) == 10, "the reachable cases"); }
