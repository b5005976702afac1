// rule: CppRestrictions.InlineVariablesWithInternalLinkage
// section: PG12.9 18.5.24.1
// statement: inline __shared__ variables, and inline __device__ variables with internal linkage (static, or in an
//   unnamed namespace), are allowed in whole program compilation
inline __shared__ int yyy0;
static inline __device__ int yyy;
namespace {
inline __device__ int zzz;
}

__global__ void kernel(int* out) { *out = yyy + zzz + yyy0; }
