// Atomic functions (5.4.5.1 legacy, 5.4.5.2 built-in), compiled by NVRTC. Every thread performs one operation on
// one shared location and records the old value it got back, at out[global thread index].
//   add_one(int* counter, int* old)                         atomicAdd(counter, 1)
//   cas_claim(int* flag, int* old)                          atomicCAS(flag, 0, index + 1)
//   inc_wrapping(unsigned* counter, unsigned bound, unsigned* old)   atomicInc(counter, bound)
//   max_of(const int* values, int* result, int* old)        atomicMax(result, values[index])
//   builtin_fetch_add(unsigned* counter, unsigned* old)     __nv_atomic_fetch_add(counter, 1u, relaxed, device)
__device__ unsigned global_index() { return blockIdx.x * blockDim.x + threadIdx.x; }

extern "C" __global__ void add_one(int* counter, int* old) { old[global_index()] = atomicAdd(counter, 1); }

extern "C" __global__ void cas_claim(int* flag, int* old) {
  const unsigned i = global_index();
  old[i] = atomicCAS(flag, 0, static_cast<int>(i) + 1);
}

extern "C" __global__ void inc_wrapping(unsigned* counter, unsigned bound, unsigned* old) {
  old[global_index()] = atomicInc(counter, bound);
}

extern "C" __global__ void max_of(const int* values, int* result, int* old) {
  const unsigned i = global_index();
  old[i] = atomicMax(result, values[i]);
}

extern "C" __global__ void builtin_fetch_add(unsigned* counter, unsigned* old) {
  old[global_index()] = __nv_atomic_fetch_add(counter, 1u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
}
