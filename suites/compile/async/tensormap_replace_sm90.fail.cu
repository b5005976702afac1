// rule: TensorMapOnDevice.ReplaceIsSpecificToSm90a
// section: PG12.9 10.30.1
// statement: the tensormap_replace functions are "marked as specific to sm_90a": code for plain sm_90 that calls one
//   does not build
// arch: sm_90
// error: tensormap_replace_global_address_is_not_supported_before_SM_90a
#include <cuda/ptx>

namespace ptx = cuda::ptx;

// CUtensorMap's size and alignment without <cuda.h>, a host header NVRTC cannot include (clang pre-includes it, so the
// name differs): tensormap.replace and tensormap_cp_fenceproxy take the map's address only.
struct alignas(64) TensorMapBytes {
  unsigned long long opaque[16];
};

__global__ void encode(const __grid_constant__ TensorMapBytes template_tensor_map, void* address, TensorMapBytes* out) {
  __shared__ alignas(128) TensorMapBytes smem_tmap;
  if (threadIdx.x == 0) {
    smem_tmap = template_tensor_map;
    ptx::tensormap_replace_global_address(ptx::space_shared, &smem_tmap, address);
  }
  __syncwarp();
  ptx::tensormap_cp_fenceproxy(ptx::sem_release, ptx::scope_gpu, out, &smem_tmap, ptx::n32_t<128>{});
}
