// rule: CppFeatures.Cpp11RvalueReferences
// section: PG12.9 18.1
// statement: rvalue references, move constructors and rvalue references for *this (C++11) are available in device
//   code
struct Buffer {
  int value = 0;
  __device__ Buffer() = default;
  __device__ Buffer(Buffer&& other) noexcept : value(other.value) { other.value = 0; }
  __device__ int take() && { return value; }
};

__device__ int consume(Buffer&& b) { return static_cast<Buffer&&>(b).take(); }

__global__ void kernel(int* out) {
  Buffer b;
  b.value = 3;
  Buffer moved(static_cast<Buffer&&>(b));
  *out = consume(static_cast<Buffer&&>(moved));
}
