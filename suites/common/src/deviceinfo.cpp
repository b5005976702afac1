// cuconform-deviceinfo: the environment of a run as JSON, read by the harness for its reports.
#include <cuda_runtime.h>

#include <cstdio>
#include <string>

namespace {

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) out += c;
  }
  return out + "\"";
}

std::string version(int encoded) {  // 13000 -> "13.0"
  return std::to_string(encoded / 1000) + "." + std::to_string(encoded % 1000 / 10);
}

}  // namespace

int main() {
  int runtime = 0;
  cudaRuntimeGetVersion(&runtime);
  int driver = 0;
  cudaError_t driver_error = cudaDriverGetVersion(&driver);
  int count = 0;
  cudaError_t count_error = cudaGetDeviceCount(&count);

  std::printf("{\"runtime_version\": %s, ", quoted(version(runtime)).c_str());
  std::printf("\"driver_cuda_version\": %s, ",
              driver_error == cudaSuccess && driver ? quoted(version(driver)).c_str() : "null");
  if (count_error != cudaSuccess || count == 0) {
    // cudaDriverGetVersion gives 0 when no driver is installed: then the runtime's error (insufficient driver)
    // would mislead.
    std::string why = count_error == cudaSuccess ? "cudaGetDeviceCount found 0 devices"
                      : driver_error == cudaSuccess && driver == 0
                          ? "no NVIDIA driver: libcuda.so.1 is not installed"
                          : std::string(cudaGetErrorName(count_error)) + ": " + cudaGetErrorString(count_error);
    std::printf("\"devices\": [], \"error\": %s}\n", quoted(why).c_str());
    return 0;
  }
  std::printf("\"devices\": [");
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, d) != cudaSuccess) continue;
    char uuid[48];
    std::snprintf(uuid, sizeof uuid, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                  p.uuid.bytes[0] & 0xff, p.uuid.bytes[1] & 0xff, p.uuid.bytes[2] & 0xff, p.uuid.bytes[3] & 0xff,
                  p.uuid.bytes[4] & 0xff, p.uuid.bytes[5] & 0xff, p.uuid.bytes[6] & 0xff, p.uuid.bytes[7] & 0xff,
                  p.uuid.bytes[8] & 0xff, p.uuid.bytes[9] & 0xff, p.uuid.bytes[10] & 0xff, p.uuid.bytes[11] & 0xff,
                  p.uuid.bytes[12] & 0xff, p.uuid.bytes[13] & 0xff, p.uuid.bytes[14] & 0xff, p.uuid.bytes[15] & 0xff);
    std::printf("%s{\"ordinal\": %d, \"name\": %s, \"uuid\": \"%s\", \"cc\": \"%d.%d\", \"sm_count\": %d, "
                "\"global_memory_bytes\": %zu, \"l2_cache_bytes\": %d, \"pci_bus_id\": \"%04x:%02x:%02x.0\", "
                "\"ecc\": %s}",
                d ? ", " : "", d, quoted(p.name).c_str(), uuid, p.major, p.minor, p.multiProcessorCount,
                p.totalGlobalMem, p.l2CacheSize, p.pciDomainID, p.pciBusID, p.pciDeviceID,
                p.ECCEnabled ? "true" : "false");
  }
  std::printf("]}\n");
  return 0;
}
