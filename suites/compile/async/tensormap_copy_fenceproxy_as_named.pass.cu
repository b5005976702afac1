// rule: TensorMapOnDevice.CopyFenceproxyAsStepFourNamesIt
// section: PG12.9 10.30.1
// statement: step 4 of the recommended process: "Using the cuda::ptx::tensormap_copy_fenceproxy function, copy the
//   modified tensor map from shared memory to global memory and perform any necessary fencing"
// arch: sm_90a
// note: the guide's kernel below the steps calls ptx::tensormap_cp_fenceproxy, the name libcu++ has (the rule
//   TensorMapOnDevice.ReplaceFunctionsCompileForSm90a); this case uses the name of the step's text
#include <cuda/ptx>

namespace ptx = cuda::ptx;

// CUtensorMap's size and alignment without <cuda.h>, a host header NVRTC cannot include (clang pre-includes it, so the
// name differs): tensormap.replace and tensormap_cp_fenceproxy take the map's address only.
struct alignas(64) TensorMapBytes {
  unsigned long long opaque[16];
};

__launch_bounds__(32) __global__ void encode(const __grid_constant__ TensorMapBytes template_tensor_map,
                                             TensorMapBytes* out) {
  __shared__ alignas(128) TensorMapBytes smem_tmap;
  if (threadIdx.x == 0) smem_tmap = template_tensor_map;
  __syncwarp();
  ptx::tensormap_copy_fenceproxy(ptx::sem_release, ptx::scope_gpu, out, &smem_tmap, ptx::n32_t<128>{});
}
