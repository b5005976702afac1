// PG12.9 15.3: an allocation made with cudaMallocAsync may be freed with cudaFree; 15.8: cudaMemPoolAttrUsedMemCurrent
// is "the total size of all of the memory allocated from the pool and not available for reuse"; 15.12: a
// synchronization makes the frees it completes available for allocation. So after cudaFree and
// cudaDeviceSynchronize the pool's used memory is back where it was before the allocation.
// Exit: 1 it is not (the disagreement), 0 it is, 2 error.
#include <cstdio>

int main() {
  int device = 0;
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  cudaMemPool_t pool = nullptr;
  cudaStream_t stream = nullptr;
  if (cudaMemPoolCreate(&pool, &props) != cudaSuccess || cudaStreamCreate(&stream) != cudaSuccess) {
    std::printf("no usable GPU\n");
    return 2;
  }
  auto used = [&] {
    unsigned long long value = 0;
    cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &value);
    return value;
  };
  const unsigned long long before = used();
  void* p = nullptr;
  // The control: freed with cudaFreeAsync.
  if (cudaMallocFromPoolAsync(&p, 1 << 20, pool, stream) != cudaSuccess) return 2;
  if (cudaFreeAsync(p, stream) != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) return 2;
  std::printf("control:    after cudaFreeAsync + cudaDeviceSynchronize %llu\n", used());
  if (cudaMallocFromPoolAsync(&p, 1 << 20, pool, stream) != cudaSuccess) return 2;
  if (cudaStreamSynchronize(stream) != cudaSuccess) return 2;
  const unsigned long long allocated = used();
  if (cudaFree(p) != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) return 2;
  const unsigned long long after = used();
  std::printf("documented: used memory after cudaFree and cudaDeviceSynchronize = %llu (as before the allocation)\n",
              before);
  std::printf("observed:   before %llu, allocated %llu, after cudaFree + cudaDeviceSynchronize %llu\n", before,
              allocated, after);
  return after == before ? 0 : 1;
}
