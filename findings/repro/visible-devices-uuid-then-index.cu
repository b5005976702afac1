// nvcc-flags:
// PG12.9 22, CUDA_VISIBLE_DEVICES: "GPU identifiers are given as integer indices or as UUID strings", and "only the
// devices whose index is present in the sequence are visible to CUDA applications and they are enumerated in the
// order of the sequence". So CUDA_VISIBLE_DEVICES=<UUID of device 1>,0 should show device 1, then device 0.
// This program (needs two GPUs) lists the devices, then runs itself again with that setting and lists what the
// child sees. Exit: 1 the child sees only device 1 (the disagreement), 0 it sees both in that order, 2 error or
// fewer than two GPUs.
#include <cuda_runtime.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

static std::vector<std::string> visible_uuids() {
  std::vector<std::string> uuids;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) return uuids;
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, d) != cudaSuccess) return {};
    char text[64];
    const unsigned char* b = reinterpret_cast<const unsigned char*>(prop.uuid.bytes);
    std::snprintf(text, sizeof text, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                  b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
    uuids.push_back(text);
  }
  return uuids;
}

int main(int argc, char** argv) {
  if (argc > 1) {  // the child: print what CUDA shows under the parent's setting
    for (const std::string& uuid : visible_uuids()) std::printf("%s\n", uuid.c_str());
    return 0;
  }
  unsetenv("CUDA_VISIBLE_DEVICES");
  const std::vector<std::string> all = visible_uuids();
  if (all.size() < 2) {
    std::printf("needs two GPUs; %zu visible\n", all.size());
    return 2;
  }
  const std::string setting = all[1] + ",0";
  std::printf("device 0: %s\ndevice 1: %s\nCUDA_VISIBLE_DEVICES=%s\n", all[0].c_str(), all[1].c_str(), setting.c_str());
  std::printf("documented: %s then %s\n", all[1].c_str(), all[0].c_str());
  const std::string command = "CUDA_VISIBLE_DEVICES=" + setting + " '" + argv[0] + "' child";
  FILE* child = popen(command.c_str(), "r");
  if (!child) return 2;
  std::vector<std::string> seen;
  char line[128];
  while (std::fgets(line, sizeof line, child)) seen.emplace_back(line, std::string(line).find('\n'));
  if (pclose(child) != 0) return 2;
  std::printf("observed:");
  for (const std::string& uuid : seen) std::printf(" %s", uuid.c_str());
  std::printf(" (%zu device%s)\n", seen.size(), seen.size() == 1 ? "" : "s");
  if (seen == std::vector<std::string>{all[1], all[0]}) return 0;
  return seen == std::vector<std::string>{all[1]} ? 1 : 2;
}
