// A stand-in for libcuda.so.1 that the interposer's self-test loads on a machine without a GPU: cuGetProcAddress
// and the few entry points the self-test calls, each recording what it was given (fake_last_call) and answering
// as a driver would.
#include <cuda.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace {

std::string g_last;
cuuint64_t g_used = 1000;  // CU_MEMPOOL_ATTR_USED_MEM_CURRENT grows with every query
CUdeviceptr g_next_allocation = 0x100000;

void record(const char* format, unsigned long long a = 0, unsigned long long b = 0) {
  char text[160];
  std::snprintf(text, sizeof text, format, a, b);
  g_last = text;
}

}  // namespace

extern "C" {

const char* fake_last_call() { return g_last.c_str(); }

CUresult cuStreamWaitEvent(CUstream stream, CUevent, unsigned int) {
  record("cuStreamWaitEvent stream=%llx", reinterpret_cast<unsigned long long>(stream));
  return CUDA_SUCCESS;
}

CUresult cuCtxGetCurrent(CUcontext* context) {
  *context = reinterpret_cast<CUcontext>(0xc0);
  return CUDA_SUCCESS;
}

CUresult cuStreamCreate(CUstream* stream, unsigned int flags) {
  *stream = reinterpret_cast<CUstream>(0x5000 + flags);
  return CUDA_SUCCESS;
}

CUresult cuMemsetD32_v2(CUdeviceptr, unsigned int value, size_t count) {
  record("cuMemsetD32 value=%llx count=%llu", value, count);
  return CUDA_SUCCESS;
}

CUresult cuGraphAddEmptyNode(CUgraphNode* node, CUgraph, const CUgraphNode*, size_t count) {
  *node = reinterpret_cast<CUgraphNode>(0x77);
  record("cuGraphAddEmptyNode dependencies=%llu", count);
  return CUDA_SUCCESS;
}

CUresult cuMemPoolGetAttribute(CUmemoryPool, CUmemPool_attribute, void* value) {
  *static_cast<cuuint64_t*>(value) = g_used++;
  return CUDA_SUCCESS;
}

// cuGetProcAddress("cuCtxSynchronize") gives the one without a context below 13.0, the one with a context at 13.0.
CUresult cuCtxSynchronize() {
  record("cuCtxSynchronize");
  return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize_v2(CUcontext context) {
  record("cuCtxSynchronize_v2 context=%llx", reinterpret_cast<unsigned long long>(context));
  return CUDA_SUCCESS;
}

CUresult cuEventCreate(CUevent* event, unsigned int flags) {
  *event = reinterpret_cast<CUevent>(0xe0);
  record("cuEventCreate flags=%llx", flags);
  return CUDA_SUCCESS;
}

// More than a device holds: out of memory, as the driver answers it.
constexpr size_t kDeviceBytes = size_t{1} << 40;

CUresult cuMemAlloc_v2(CUdeviceptr* pointer, size_t bytes) {
  if (bytes > kDeviceBytes) return CUDA_ERROR_OUT_OF_MEMORY;
  *pointer = g_next_allocation;
  g_next_allocation += (bytes + 255) / 256 * 256 + 256;
  return CUDA_SUCCESS;
}

CUresult cuMemFree_v2(CUdeviceptr pointer) {
  record("cuMemFree pointer=%llx", pointer);
  return CUDA_SUCCESS;
}

// A grid with no block is rejected, as the driver rejects it.
CUresult cuLaunchKernel(CUfunction, unsigned int gx, unsigned int, unsigned int, unsigned int, unsigned int,
                        unsigned int, unsigned int, CUstream, void**, void**) {
  record("cuLaunchKernel gx=%llu", gx);
  return gx ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuTexObjectCreate(CUtexObject* texture, const CUDA_RESOURCE_DESC*, const CUDA_TEXTURE_DESC* description,
                           const CUDA_RESOURCE_VIEW_DESC*) {
  *texture = 0x7e;
  record("cuTexObjectCreate filter=%llu", description->filterMode);
  return CUDA_SUCCESS;
}

CUresult cuPointerGetAttribute(void* data, CUpointer_attribute, CUdeviceptr) {
  *static_cast<unsigned int*>(data) = CU_MEMORYTYPE_DEVICE;
  return CUDA_SUCCESS;
}

CUresult cuGetProcAddress_v2(const char* symbol, void** function, int version, cuuint64_t,
                             CUdriverProcAddressQueryResult* status) {
  struct Known {
    const char* name;
    void* function;
  };
  const Known known[] = {
      {"cuStreamWaitEvent", reinterpret_cast<void*>(&cuStreamWaitEvent)},
      {"cuCtxGetCurrent", reinterpret_cast<void*>(&cuCtxGetCurrent)},
      {"cuStreamCreate", reinterpret_cast<void*>(&cuStreamCreate)},
      {"cuMemsetD32", reinterpret_cast<void*>(&cuMemsetD32_v2)},
      {"cuEventCreate", reinterpret_cast<void*>(&cuEventCreate)},
      {"cuLaunchKernel", reinterpret_cast<void*>(&cuLaunchKernel)},
      {"cuTexObjectCreate", reinterpret_cast<void*>(&cuTexObjectCreate)},

      {"cuGraphAddEmptyNode", reinterpret_cast<void*>(&cuGraphAddEmptyNode)},
      {"cuMemPoolGetAttribute", reinterpret_cast<void*>(&cuMemPoolGetAttribute)},
      {"cuMemAlloc", reinterpret_cast<void*>(&cuMemAlloc_v2)},
      {"cuMemFree", reinterpret_cast<void*>(&cuMemFree_v2)},
      {"cuPointerGetAttribute", reinterpret_cast<void*>(&cuPointerGetAttribute)},
      {"cuGetProcAddress", reinterpret_cast<void*>(&cuGetProcAddress_v2)},
      {"cuCtxSynchronize",
       version >= 13000 ? reinterpret_cast<void*>(&cuCtxSynchronize_v2) : reinterpret_cast<void*>(&cuCtxSynchronize)},
  };
  for (const Known& entry : known) {
    if (std::strcmp(entry.name, symbol) == 0) {
      *function = entry.function;
      if (status) *status = CU_GET_PROC_ADDRESS_SUCCESS;
      return CUDA_SUCCESS;
    }
  }
  *function = nullptr;
  if (status) *status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  return CUDA_ERROR_NOT_FOUND;
}

}  // extern "C"
