// rule: BuiltinUnreachable.AvailableInDeviceCode
// section: 5.4.9.5
// statement: __builtin_unreachable() is available in device code, e.g. as the default of a switch whose other
//   cases are exhaustive
__device__ int pick(int in) {
  switch (in) {
    case 1: return 4;
    case 2: return 10;
    default: __builtin_unreachable();
  }
}

__global__ void kernel(const int* in, int* out) { *out = pick(*in); }
