// rule: MemorySpace.SharedDynamicAsExternPointer
// section: 5.4.1.2.1
// statement: a __shared__ variable of dynamic size may be declared as a pointer ("extern __shared__ char*
//   dynamic_smem_pointer; alternative syntax")
extern __shared__ char* dynamic_smem_pointer;

__global__ void kernel(int* out) { *out = dynamic_smem_pointer != nullptr; }
