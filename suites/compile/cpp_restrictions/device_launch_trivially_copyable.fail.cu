// rule: CppRestrictions.DeviceLaunchArgumentsTriviallyCopyable
// section: PG12.9 18.5.10.3.1
// statement: when a __global__ function is launched from device code, each argument must be trivially copyable and
//   trivially destructible
// flags.nvcc: -rdc=true
// flags.clang: -fgpu-rdc
// flags.nvrtc: -rdc=true
// error: error: cannot pass an argument with a user-provided copy-constructor to a device-side kernel launch
// error.clang: error: .*(trivially|copy)
struct Counted {
  int value;
  __host__ __device__ Counted() : value(0) {}
  __host__ __device__ Counted(const Counted& other) : value(other.value + 1) {}
};

__global__ void child(Counted c) {}

__global__ void parent() {
  Counted c;
  child<<<1, 1>>>(c);
}
