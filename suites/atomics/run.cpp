// run_erased (layout.h): launching an atomics kernel on erased values, or simulating it on the host.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <stdexcept>

#include <cuconform/buffer.h>
#include <cuconform/check.h>

#include "layout.h"

namespace atomics {
namespace {

// The bytes of `values`, each cut to `size`.
std::vector<unsigned char> packed(const std::vector<Value>& values, std::size_t size) {
  std::vector<unsigned char> bytes(values.size() * size);
  for (std::size_t i = 0; i < values.size(); ++i) std::memcpy(&bytes[i * size], values[i].bytes.data(), size);
  return bytes;
}

std::vector<Value> unpacked(const std::vector<unsigned char>& bytes, std::size_t size) {
  std::vector<Value> values(bytes.size() / size);
  for (std::size_t i = 0; i < values.size(); ++i) std::memcpy(values[i].bytes.data(), &bytes[i * size], size);
  return values;
}

ErasedRun launch(const ErasedOp& op, Space space, const Layout& layout, const std::vector<Value>& initial,
                 const std::vector<Value>& args) {
  cuconform::DeviceBuffer<unsigned char> cells(packed(initial, op.value_size));
  cuconform::DeviceBuffer<unsigned char> device_args(packed(args, op.arg_size));
  cuconform::DeviceBuffer<unsigned char> records(std::size_t(layout.total()) * op.out_size);
  void* cells_pointer = cells.get();
  void* args_pointer = device_args.get();
  void* records_pointer = records.get();
  unsigned group = layout.group;
  void* params[] = {&cells_pointer, &args_pointer, &records_pointer, &group};
  const std::size_t shared_bytes = space == Space::Shared ? std::size_t(layout.threads / layout.group) * op.value_size : 0;
  CUDA_CHECK(cudaLaunchKernel(op.kernel, dim3(layout.blocks), dim3(layout.threads), params, shared_bytes, nullptr));
  CUDA_CHECK(cudaDeviceSynchronize());
  return {unpacked(records.to_host(), op.out_size), unpacked(cells.to_host(), op.value_size)};
}

// Each cell's operations in a random serial order. A simulated lost update always loses a write that mattered: the
// thread after one that changed the value reads the value from before that change.
ErasedRun simulate(const ErasedOp& op, const Layout& layout, const std::vector<Value>& initial,
                   const std::vector<Value>& args) {
  static std::mt19937 random(12345);
  const auto flip = [](Value& value) { value.bytes[0] ^= 1; };
  ErasedRun run{std::vector<Value>(layout.total()), initial};
  for (unsigned c = 0; c < layout.cells(); ++c) {
    std::vector<unsigned> order(layout.group);
    for (unsigned k = 0; k < layout.group; ++k) order[k] = c * layout.group + k;
    std::shuffle(order.begin(), order.end(), random);
    std::vector<unsigned> after_change;  // positions whose predecessor changed the value
    Value state = initial[c];
    for (unsigned k = 0; k + 1 < layout.group; ++k) {
      const Value next = op.model(state, args[order[k]]);
      if (next != state) after_change.push_back(k + 1);
      state = next;
    }
    const bool inject = simulation() == Simulation::LostUpdate && !after_change.empty();
    const unsigned lost = inject ? after_change[random() % after_change.size()] : layout.group;
    state = initial[c];
    Value before = state;
    for (unsigned k = 0; k < layout.group; ++k) {
      const Value seen = k == lost ? before : state;
      run.olds[order[k]] = op.out_of ? op.out_of(seen, args[order[k]]) : seen;
      before = state;
      state = op.model(seen, args[order[k]]);
    }
    run.finals[c] = state;
    if (simulation() == Simulation::WrongFinal) flip(run.finals[c]);
  }
  if (simulation() == Simulation::WrongOld) flip(run.olds[random() % run.olds.size()]);
  return run;
}

}  // namespace

ErasedRun run_erased(const ErasedOp& op, Space space, const Layout& layout, const std::vector<Value>& initial,
                     const std::vector<Value>& args) {
  if (initial.size() != layout.cells() || args.size() != layout.total() || layout.total() % layout.group != 0 ||
      (space == Space::Shared && layout.threads % layout.group != 0)) {
    throw std::invalid_argument("run_erased: layout, cells and arguments do not fit together");
  }
  if (simulation() != Simulation::Off) return simulate(op, layout, initial, args);
  return launch(op, space, layout, initial, args);
}

}  // namespace atomics
