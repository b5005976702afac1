// rule: LaunchBounds.ArchDependentValues
// section: 5.4.3.2
// arch: sm_90
// statement: launch bounds may depend on __CUDA_ARCH__ (the guide's MY_KERNEL_MAX_THREADS example); for sm_90 the
//   bounds are 512 threads and 3 blocks
// ptx-match: \.maxntid\s+512\b
// ptx-match: \.minnctapersm\s+3\b
#define THREADS_PER_BLOCK 256
#if __CUDA_ARCH__ >= 900
#define MY_KERNEL_MAX_THREADS (2 * THREADS_PER_BLOCK)
#define MY_KERNEL_MIN_BLOCKS 3
#else
#define MY_KERNEL_MAX_THREADS THREADS_PER_BLOCK
#define MY_KERNEL_MIN_BLOCKS 2
#endif

__global__ void __launch_bounds__(MY_KERNEL_MAX_THREADS, MY_KERNEL_MIN_BLOCKS) kernel(int* out) {
  out[threadIdx.x] = 1;
}
