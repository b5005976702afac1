// cuconform-multi: runs the shared batches of several areas in one process, so in one CUDA context (a context costs
// ~0.4 s to create, and the driver creates them one at a time: docs/design/processes.md).
//
//   cuconform-multi --part <area> <module.so> <area executable> <GoogleTest arguments...> [--part ...]
//
// Each part loads the area's module (its test objects linked as a shared module, with their own GoogleTest and
// static CUDA runtime, RTLD_LOCAL so that no two areas' symbols meet), prints "[ AREA     ] <area>" so that the
// harness knows whose tests follow, and runs the module's main with the area's executable as argv[0] and the given
// arguments: the same tests, filter and output as that executable run alone. Every module's runtime uses the
// device's primary context, so the process has one context. A part's test that crashes, or poisons the context,
// ends the process as it would end the area's executable; the harness runs the tests left in a fresh one. The exit
// code is the highest of the parts' (0: all passed, 1: some failed).
#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr int kUsageExitCode = 2;
constexpr const char* kAreaTag = "[ AREA     ] ";

struct Part {
  std::string area;
  std::string module;
  std::vector<std::string> args;  // args[0]: the area's executable
};

bool parse(int argc, char** argv, std::vector<Part>& parts) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--part") == 0) {
      if (i + 3 >= argc) return false;
      parts.push_back(Part{argv[i + 1], argv[i + 2], {argv[i + 3]}});
      i += 3;
    } else if (parts.empty()) {
      return false;
    } else {
      parts.back().args.emplace_back(argv[i]);
    }
  }
  return !parts.empty();
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::vector<Part> parts;
  if (!parse(argc, argv, parts)) {
    std::fprintf(stderr, "usage: cuconform-multi --part <area> <module.so> <area executable> [GoogleTest arguments...] "
                         "[--part ...]\n");
    return kUsageExitCode;
  }
  int worst = 0;
  for (Part& part : parts) {
    void* module = dlopen(part.module.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!module) {
      std::fprintf(stderr, "cuconform-multi: cannot load %s: %s\n", part.module.c_str(), dlerror());
      return kUsageExitCode;
    }
    using Entry = int (*)(int, char**);
    auto entry = reinterpret_cast<Entry>(dlsym(module, "cuconform_module_main"));
    if (!entry) {
      std::fprintf(stderr, "cuconform-multi: %s has no cuconform_module_main\n", part.module.c_str());
      return kUsageExitCode;
    }
    std::vector<char*> args;
    for (std::string& arg : part.args) args.push_back(arg.data());
    args.push_back(nullptr);
    std::printf("%s%s\n", kAreaTag, part.area.c_str());
    std::fflush(stdout);
    worst = std::max(worst, entry(static_cast<int>(part.args.size()), args.data()));
    std::fflush(stdout);
    // The module stays loaded: its runtime's exit handlers run at the process's end, as in its own executable.
  }
  return worst;
}
