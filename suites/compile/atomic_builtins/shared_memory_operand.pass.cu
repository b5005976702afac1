// rule: AtomicBuiltins.SharedMemoryOperand
// section: 5.4.5.2.1
// statement: the built-ins operate on global or shared memory: a __shared__ operand is accepted
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
__global__ void kernel(int* out) {
  __shared__ int counter;
  if (threadIdx.x == 0) counter = 0;
  __syncthreads();
  __nv_atomic_fetch_add(&counter, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
  __syncthreads();
  if (threadIdx.x == 0) *out = counter;
}
