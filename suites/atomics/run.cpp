// run_erased (layout.h): launching an atomics kernel on erased values, or simulating it on the host.
#include <cuconform/buffer.h>
#include <cuconform/check.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <random>
#include <stdexcept>

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

// Device memory for the launches of a process, kept between them: the rules run hundreds of small launches, and
// allocating and freeing for each would cost more than the launches.
class Scratch {
 public:
  // A region of `bytes`, aligned to 256, valid until the next call.
  unsigned char* region(int which, std::size_t bytes) {
    auto& buffer = buffers_[which];
    if (!buffer || buffer->size() < bytes) buffer = std::make_unique<cuconform::DeviceBuffer<unsigned char>>(bytes);
    return buffer->get();
  }

 private:
  std::unique_ptr<cuconform::DeviceBuffer<unsigned char>> buffers_[3];
};

std::vector<unsigned char> copied_back(const unsigned char* device, std::size_t bytes) {
  std::vector<unsigned char> host(bytes);
  CUDA_CHECK(cudaMemcpy(host.data(), device, bytes, cudaMemcpyDeviceToHost));
  return host;
}

ErasedRun launch(const ErasedOp& op, Space space, const Layout& layout, const std::vector<Value>& initial,
                 const std::vector<Value>& args) {
  static Scratch scratch;
  const std::vector<unsigned char> cell_bytes = packed(initial, op.value_size), arg_bytes = packed(args, op.arg_size);
  const std::size_t record_bytes = std::size_t(layout.total()) * op.out_size;
  unsigned char* cells = scratch.region(0, cell_bytes.size());
  unsigned char* device_args = scratch.region(1, arg_bytes.size());
  unsigned char* records = scratch.region(2, record_bytes);
  CUDA_CHECK(cudaMemcpy(cells, cell_bytes.data(), cell_bytes.size(), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(device_args, arg_bytes.data(), arg_bytes.size(), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(records, 0, record_bytes));  // padding in what the threads record is read back too
  unsigned group = layout.group;
  void* params[] = {&cells, &device_args, &records, &group};
  const std::size_t shared_bytes =
      space == Space::Shared ? std::size_t(layout.threads / layout.group) * op.value_size : 0;
  CUDA_CHECK(cudaLaunchKernel(op.kernel, dim3(layout.blocks), dim3(layout.threads), params, shared_bytes, nullptr));
  CUDA_CHECK(cudaDeviceSynchronize());
  return {unpacked(copied_back(records, record_bytes), op.out_size),
          unpacked(copied_back(cells, cell_bytes.size()), op.value_size)};
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
