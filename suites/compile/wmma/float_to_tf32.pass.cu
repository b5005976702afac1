// rule: Wmma.FloatToTf32Intrinsic
// section: 5.4.11.2
// statement: the intrinsic __float_to_tf32 converts a float to tf32 precision (float in, float out)
#include <mma.h>
using namespace nvcuda;

__global__ void kernel(const float* in, float* out) { out[threadIdx.x] = wmma::__float_to_tf32(in[threadIdx.x]); }
