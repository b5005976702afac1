// rule: CppFeatures.Cpp14DeprecatedAttribute
// section: PG12.9 18.2
// statement: the [[deprecated]] attribute (C++14) is available on device functions
// std: c++14
[[deprecated("use new_api")]] __device__ int old_api() { return 1; }
__device__ int new_api() { return 2; }

__global__ void kernel(int* out) { *out = new_api(); }
