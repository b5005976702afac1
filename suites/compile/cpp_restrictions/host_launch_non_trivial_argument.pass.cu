// rule: CppRestrictions.HostLaunchNonTrivialArgumentsAllowed
// section: PG12.9 18.5.10.3.1
// statement: when a __global__ function is launched from host code, an argument may be non-trivially copyable or
//   non-trivially destructible
// skip.nvrtc: host code (NVRTC compiles device code only)
struct Counted {
  int value;
  __host__ __device__ Counted() : value(0) {}
  __host__ __device__ Counted(const Counted& other) : value(other.value + 1) {}
  __host__ __device__ ~Counted() {}
};

__global__ void child(Counted c) {}

void launch() {
  Counted c;
  child<<<1, 1>>>(c);
}
