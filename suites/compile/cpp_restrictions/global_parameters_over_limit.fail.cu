// rule: CppRestrictions.GlobalParametersOver32764BytesRejected
// section: PG12.9 18.5.10.3
// statement: __global__ function parameters are limited to 32,764 bytes: 32,768 bytes are rejected
// error: Formal parameter space overflowed \(\d+ bytes required, max 32764 bytes allowed\)
// error.clang: error\s*: .*uses too much parameter space \(0x[0-9a-f]+ bytes, 0x7ffc max\)
struct Params {
  char bytes[32768];
};

__device__ char first_byte;

__global__ void kernel(Params p) { first_byte = p.bytes[0]; }
