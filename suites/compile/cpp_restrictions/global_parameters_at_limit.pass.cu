// rule: CppRestrictions.GlobalParametersUpTo32764Bytes
// section: PG12.9 18.5.10.3
// statement: __global__ function parameters are limited to 32,764 bytes (starting with Volta): parameters of 32,764
//   bytes in all compile
struct Params {
  char bytes[32764];
};
static_assert(sizeof(Params) == 32764, "the parameter is 32,764 bytes");

__device__ char last_byte;

__global__ void kernel(Params p) { last_byte = p.bytes[32763]; }
