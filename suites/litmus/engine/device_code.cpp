#include "device_code.h"

#include <cxxabi.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

namespace litmus {
namespace {

bool executable(const std::string& path) { return !path.empty() && access(path.c_str(), X_OK) == 0; }

// Runs `command`, returns its standard output and error; `status` gets pclose's status.
std::string output_of(const std::string& command, int& status) {
  std::string out;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) {
    status = -1;
    return out;
  }
  char buffer[1 << 16];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
  status = pclose(pipe);
  return out;
}

std::string quoted(const std::string& path) { return "'" + path + "'"; }

// Fatbin container header (the layout nvcc's fatbinary writes and the CUDA runtime reads).
struct FatbinHeader {
  uint32_t magic;
  uint16_t version;
  uint16_t header_size;
  uint64_t fat_size;
};
constexpr uint32_t kFatbinMagic = 0xBA55ED50u;

uint64_t fnv1a(const char* data, size_t size, uint64_t hash = 0xcbf29ce484222325ull) {
  for (size_t i = 0; i < size; ++i) hash = (hash ^ static_cast<unsigned char>(data[i])) * 0x100000001b3ull;
  return hash;
}

// Where the disassembly of a fatbin is kept between processes: `.device-code-cache/` beside the executable (each
// test process would otherwise run cuobjdump again: 15 s on the H100 host with a function list, which made it
// slower). An entry is named by a hash of the fatbin's bytes and the tool, so a rebuilt or patched executable
// (scripts/conformance mutate) misses it and is disassembled again. "" where no such folder can be made.
std::string cache_folder(const std::string& path) {
  char resolved[4096];
  const ssize_t n = readlink(path.c_str(), resolved, sizeof resolved - 1);
  const std::string file = n > 0 ? std::string(resolved, static_cast<size_t>(n)) : path;
  const size_t slash = file.rfind('/');
  const std::string folder =
      (slash == std::string::npos ? std::string(".") : file.substr(0, slash)) + "/.device-code-cache";
  return mkdir(folder.c_str(), 0755) == 0 || errno == EEXIST ? folder : "";
}

// `cuobjdump -sass` of the fatbin file `fatbin` whose bytes are `bytes`, from the cache when it holds them.
std::string disassembled(const std::string& tool, const std::string& fatbin, const char* bytes, size_t size,
                         const std::string& cache, int& status) {
  char key[17];
  const std::string command = quoted(tool) + " -sass";
  std::snprintf(key, sizeof key, "%016llx",
                static_cast<unsigned long long>(fnv1a(command.data(), command.size(), fnv1a(bytes, size))));
  const std::string entry = cache.empty() ? "" : cache + "/" + key + ".sass";
  if (!entry.empty()) {
    std::ifstream kept(entry, std::ios::binary);
    if (kept) {
      status = 0;
      return std::string((std::istreambuf_iterator<char>(kept)), std::istreambuf_iterator<char>());
    }
  }
  std::ofstream(fatbin, std::ios::binary).write(bytes, static_cast<std::streamsize>(size));
  const std::string text = output_of(command + " " + quoted(fatbin), status);
  std::remove(fatbin.c_str());
  if (status == 0 && !entry.empty()) {  // written aside, then renamed: a process reading it sees all or nothing
    const std::string partial = entry + "." + std::to_string(getpid());
    std::ofstream(partial, std::ios::binary).write(text.data(), static_cast<std::streamsize>(text.size()));
    if (std::rename(partial.c_str(), entry.c_str()) != 0) std::remove(partial.c_str());
  }
  return text;
}

}  // namespace

std::string find_cuobjdump() {
  if (const char* chosen = std::getenv("CUCONFORM_CUOBJDUMP")) return executable(chosen) ? chosen : "";
#if defined(CUCONFORM_CUDA_BIN_DIR)
  if (const std::string beside = std::string(CUCONFORM_CUDA_BIN_DIR) + "/cuobjdump"; executable(beside)) return beside;
#endif
  if (const char* path = std::getenv("PATH")) {
    std::stringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');) {
      if (const std::string candidate = dir + "/cuobjdump"; !dir.empty() && executable(candidate)) return candidate;
    }
  }
  return executable("/usr/local/cuda/bin/cuobjdump") ? "/usr/local/cuda/bin/cuobjdump" : "";
}

void parse_sass(const std::string& text, DeviceCode& code) {
  // Plain string handling: a whole executable's listing is hundreds of thousands of lines.
  const auto trimmed = [](const std::string& t, size_t from, size_t to) {
    while (from < to && std::isspace(static_cast<unsigned char>(t[from]))) ++from;
    while (to > from && std::isspace(static_cast<unsigned char>(t[to - 1]))) --to;
    return t.substr(from, to - from);
  };
  std::vector<std::string>* current = nullptr;
  std::stringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos) continue;
    if (line.compare(first, 8, "Function") == 0) {
      const size_t colon = line.find(':', first);
      if (colon == std::string::npos) continue;
      auto& variants = code.functions[trimmed(line, colon + 1, line.size())];
      variants.emplace_back();
      current = &variants.back();
    } else if (current && line.compare(first, 2, "/*") == 0) {
      // "/*0120*/   MEMBAR.SC.CTA ;   /* 0x... */": an address, the instruction up to ';', its encoding.
      const size_t close = line.find("*/", first + 2);
      const size_t semicolon = close == std::string::npos ? close : line.find(';', close);
      if (semicolon == std::string::npos || line[first + 2] == ' ') continue;  // "/* 0x... */": encoding only
      current->push_back(trimmed(line, close + 2, semicolon));
    }
  }
}

DeviceCode read_device_code(const std::string& path) {
  DeviceCode code;
  code.tool = find_cuobjdump();
  if (code.tool.empty()) {
    code.error = "cuobjdump not found ($CUCONFORM_CUOBJDUMP, the build's CUDA bin folder, PATH, /usr/local/cuda/bin)";
    return code;
  }
  std::ifstream file(path, std::ios::binary);
  const std::string image((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (image.empty()) {
    code.error = "cannot read " + path;
    return code;
  }
  std::string folder = (std::getenv("TMPDIR") ? std::string(std::getenv("TMPDIR")) : std::string("/tmp")) +
                       "/cuconform-device-code-XXXXXX";
  if (!mkdtemp(folder.data())) {
    code.error = "mkdtemp failed for " + folder;
    return code;
  }
  const std::string cache = cache_folder(path);
  char magic[4];
  std::memcpy(magic, &kFatbinMagic, sizeof magic);
  std::string sass;
  for (size_t at = image.find(std::string(magic, 4)); at != std::string::npos;
       at = image.find(std::string(magic, 4), at + 4)) {
    FatbinHeader h{};
    if (at + sizeof h > image.size()) break;
    std::memcpy(&h, image.data() + at, sizeof h);
    const size_t room = image.size() - at;
    if (h.version != 1 || h.header_size < sizeof h || h.header_size > room || h.fat_size == 0 ||
        h.fat_size > room - h.header_size) {
      continue;  // four bytes that only look like the magic
    }
    const std::string fatbin = folder + "/" + std::to_string(code.fatbins++) + ".fatbin";
    int status = 0;
    const std::string text =
        disassembled(code.tool, fatbin, image.data() + at, h.header_size + h.fat_size, cache, status);
    if (status != 0) {
      code.error = code.tool + " -sass failed on the fatbin at offset " + std::to_string(at) + " of " + path + ": " +
                   text.substr(0, 400);
      break;
    }
    parse_sass(text, code);
    at += h.header_size + h.fat_size - 4;
  }
  rmdir(folder.c_str());
  if (code.error.empty() && code.fatbins == 0) code.error = "no fatbin found in " + path;
  if (code.error.empty() && code.functions.empty()) {  // e.g. the sm80-ptx preset: the driver compiles what runs
    code.error = "no SASS in " + path + " (" + std::to_string(code.fatbins) + " fatbins of PTX only)";
  }
  return code;
}

const std::vector<std::vector<std::string>>* find_function(const DeviceCode& code, const std::string& name) {
  if (const auto found = code.functions.find(name); found != code.functions.end()) return &found->second;
  for (const auto& [mangled, variants] : code.functions) {
    int status = 0;
    char* readable = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
    const bool same = status == 0 && readable && name == readable;
    std::free(readable);
    if (same) return &variants;
  }
  return nullptr;
}

std::vector<std::string> block_scope_fences(const std::vector<std::string>& instructions) {
  std::vector<std::string> out;
  for (const std::string& i : instructions) {
    const size_t at = i.find("MEMBAR");
    if (at == std::string::npos || (at > 0 && i[at - 1] != ' ')) continue;
    const std::string opcode = i.substr(at, i.find(' ', at) - at);  // MEMBAR.SC.CTA
    for (const char* scope : {".CTA", ".GPU", ".SYS"}) {
      if (opcode.size() >= 4 && opcode.compare(opcode.size() - 4, 4, scope) == 0) out.push_back(i);
    }
  }
  return out;
}

}  // namespace litmus
