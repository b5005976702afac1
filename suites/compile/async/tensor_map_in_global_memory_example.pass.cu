// rule: TensorMap.GlobalMemoryExampleCompiles
// section: PG12.9 10.29.2
// statement: the guide's example of a tensor map in global memory compiles: a __device__ CUtensorMap written with
//   cudaMemcpy, a kernel taking CUtensorMap* that acquires it with fence_proxy_tensormap_generic at .sys scope, and
//   the launch kernel<<<1, 1>>>(global_tensor_map)
// skip.nvrtc: host code (cudaMemcpy and the launch)
// note: the launch passes the CUtensorMap object where the kernel takes a CUtensorMap*, and host code that takes the
//   address of a __device__ variable gets no device address (cudaGetSymbolAddress or cudaMemcpyToSymbol would); the
//   runtime rule TensorMapHome (suites/async) uses a pointer to device memory
#include <cuda.h>
#include <cuda/ptx>
namespace ptx = cuda::ptx;

__device__ CUtensorMap global_tensor_map;
__global__ void kernel(CUtensorMap *tensor_map)
{
    // Fence acquire tensor map:
    ptx::n32_t<128> size_bytes;
    // Since the tensor map was modified from the host using cudaMemcpy,
    // the scope should be .sys.
    ptx::fence_proxy_tensormap_generic(
        ptx::sem_acquire, ptx::scope_sys, tensor_map, size_bytes
    );
    // Safe to use tensor_map after fence inside this thread..
}
int main() {
    CUtensorMap local_tensor_map;
    // [ ..Initialize map.. ]
    cudaMemcpy(&global_tensor_map, &local_tensor_map, sizeof(CUtensorMap),
    cudaMemcpyHostToDevice);
    kernel<<<1, 1>>>(global_tensor_map);
}
