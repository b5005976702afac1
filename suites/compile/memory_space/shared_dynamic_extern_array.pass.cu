// rule: MemorySpace.SharedDynamicAsExternArray
// section: 5.4.1.2.1
// statement: a __shared__ variable of dynamic size is declared as an external array
extern __shared__ char dynamic_smem[];

__global__ void kernel(int* out) {
  __shared__ int static_smem[4];
  auto* words = reinterpret_cast<int*>(dynamic_smem);
  static_smem[threadIdx.x % 4] = words[threadIdx.x];
  *out = static_smem[0];
}
