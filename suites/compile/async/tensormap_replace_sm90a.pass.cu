// rule: TensorMapOnDevice.ReplaceFunctionsCompileForSm90a
// section: PG12.9 10.30.1
// statement: the cuda::ptx::tensormap_replace functions of the guide's encode kernel (global_address, rank, box_dim,
//   global_dim, global_stride, element_size, elemtype, interleave_layout, swizzle_mode, fill_mode) and
//   tensormap_cp_fenceproxy compile for sm_90a ("compile using nvcc -arch sm_90a"), as tensormap.replace.tile
// arch: sm_90a
// ptx-match: tensormap\.replace\.tile\.global_address\.shared::cta\.b1024\.b64
// ptx-match: tensormap\.replace\.tile\.rank\.shared::cta\.b1024\.b32
// ptx-match: tensormap\.replace\.tile\.element_stride\.shared::cta\.b1024\.b32
// ptx-match: tensormap\.replace\.tile\.fill_mode\.shared::cta\.b1024\.b32
// ptx-match: tensormap\.cp_fenceproxy\.global\.shared::cta\.tensormap::generic\.release\.gpu
#include <cuda/ptx>

namespace ptx = cuda::ptx;

// CUtensorMap's size and alignment without <cuda.h>, a host header NVRTC cannot include (clang pre-includes it, so the
// name differs): tensormap.replace and tensormap_cp_fenceproxy take the map's address only.
struct alignas(64) TensorMapBytes {
  unsigned long long opaque[16];
};

__launch_bounds__(32) __global__ void encode(const __grid_constant__ TensorMapBytes template_tensor_map, void* address,
                                             TensorMapBytes* out) {
  __shared__ alignas(128) TensorMapBytes smem_tmap;
  if (threadIdx.x == 0) {
    smem_tmap = template_tensor_map;
    const auto space_shared = ptx::space_shared;
    ptx::tensormap_replace_global_address(space_shared, &smem_tmap, address);
    ptx::tensormap_replace_rank(space_shared, &smem_tmap, 1);
    ptx::tensormap_replace_box_dim(space_shared, &smem_tmap, ptx::n32_t<0>{}, 128u);
    ptx::tensormap_replace_global_dim(space_shared, &smem_tmap, ptx::n32_t<1>{}, 8u);
    ptx::tensormap_replace_global_stride(space_shared, &smem_tmap, ptx::n32_t<0>{}, size_t{256});
    ptx::tensormap_replace_element_size(space_shared, &smem_tmap, ptx::n32_t<0>{}, 1u);
    ptx::tensormap_replace_elemtype(space_shared, &smem_tmap, ptx::n32_t<0>{});
    ptx::tensormap_replace_interleave_layout(space_shared, &smem_tmap, ptx::n32_t<0>{});
    ptx::tensormap_replace_swizzle_mode(space_shared, &smem_tmap, ptx::n32_t<0>{});
    ptx::tensormap_replace_fill_mode(space_shared, &smem_tmap, ptx::n32_t<0>{});
  }
  __syncwarp();
  ptx::tensormap_cp_fenceproxy(ptx::sem_release, ptx::scope_gpu, out, &smem_tmap, ptx::n32_t<128>{});
}
