// Memcpy nodes made with cudaGraphAddMemcpyNode from a full cudaMemcpy3DParms (PG12.9 6.2.8.7.1.1 lists memcpy among
// the node types), and their individual update with cudaGraphExecMemcpyNodeSetParams (6.2.8.7.5.3), the form that
// takes the same parameters, which 6.2.8.7.5.1 allows for 1-D nodes only (update.cu changes 1-D nodes): a 3-D node's
// update is refused. The copies move a box of a pitched 3-D allocation into another; a host model of the box copy
// gives every element of the destination.
#include <vector>

#include "cuconform/cuconform.h"
#include "graph_util.h"

namespace graphs {
namespace {

class MemcpyNode : public cuconform::GpuTest {};
class MemcpyNodeUpdate : public cuconform::GpuTest {};

constexpr int kWidth = 16, kHeight = 8, kDepth = 4;  // elements of int
constexpr size_t kElements = static_cast<size_t>(kWidth) * kHeight * kDepth;

struct Box {
  int x, y, z;           // source corner, in elements
  int to_x, to_y, to_z;  // destination corner
  int width, height, depth;
};

// A pitched 3-D allocation of kWidth x kHeight x kDepth ints.
class Volume {
 public:
  Volume() {
    CUDA_CHECK(cudaMalloc3D(&pitched_, make_cudaExtent(kWidth * sizeof(int), kHeight, kDepth)));
    clear();
  }
  Volume(const Volume&) = delete;
  Volume& operator=(const Volume&) = delete;
  ~Volume() { cudaFree(pitched_.ptr); }
  const cudaPitchedPtr& pitched() const { return pitched_; }

  void clear() { CUDA_CHECK(cudaMemset3D(pitched_, 0, make_cudaExtent(kWidth * sizeof(int), kHeight, kDepth))); }
  void copy(std::vector<int>& host, cudaMemcpyKind kind) const {
    cudaMemcpy3DParms copy{};
    cudaPitchedPtr packed = make_cudaPitchedPtr(host.data(), kWidth * sizeof(int), kWidth, kHeight);
    (kind == cudaMemcpyHostToDevice ? copy.srcPtr : copy.dstPtr) = packed;
    (kind == cudaMemcpyHostToDevice ? copy.dstPtr : copy.srcPtr) = pitched_;
    copy.extent = make_cudaExtent(kWidth * sizeof(int), kHeight, kDepth);
    copy.kind = kind;
    CUDA_CHECK(cudaMemcpy3D(&copy));
  }
  std::vector<int> to_host() const {
    std::vector<int> host(kElements);
    copy(host, cudaMemcpyDeviceToHost);
    return host;
  }

 private:
  cudaPitchedPtr pitched_{};
};

size_t at(int x, int y, int z) { return (static_cast<size_t>(z) * kHeight + y) * kWidth + x; }

std::vector<int> source_values() {
  std::vector<int> values(kElements);
  for (int z = 0; z < kDepth; ++z)
    for (int y = 0; y < kHeight; ++y)
      for (int x = 0; x < kWidth; ++x) values[at(x, y, z)] = 1 + 10000 * z + 100 * y + x;
  return values;
}

// The host model: a zeroed destination holding the box of `source`.
std::vector<int> box_copied(const std::vector<int>& source, const Box& box) {
  std::vector<int> expected(kElements, 0);
  for (int z = 0; z < box.depth; ++z)
    for (int y = 0; y < box.height; ++y)
      for (int x = 0; x < box.width; ++x)
        expected[at(box.to_x + x, box.to_y + y, box.to_z + z)] = source[at(box.x + x, box.y + y, box.z + z)];
  return expected;
}

cudaMemcpy3DParms box_params(const Volume& from, const Volume& to, const Box& box) {
  cudaMemcpy3DParms params{};
  params.srcPtr = from.pitched();
  params.srcPos = make_cudaPos(box.x * sizeof(int), box.y, box.z);  // x in bytes for memory that is not an array
  params.dstPtr = to.pitched();
  params.dstPos = make_cudaPos(box.to_x * sizeof(int), box.to_y, box.to_z);
  params.extent = make_cudaExtent(box.width * sizeof(int), box.height, box.depth);
  params.kind = cudaMemcpyDeviceToDevice;
  return params;
}

// "element (x, y, z): got g, expected e" for the first few differences.
::testing::AssertionResult same_volume(const std::vector<int>& got, const std::vector<int>& expected) {
  int wrong = 0;
  auto failure = ::testing::AssertionFailure();
  for (int z = 0; z < kDepth; ++z)
    for (int y = 0; y < kHeight; ++y)
      for (int x = 0; x < kWidth; ++x)
        if (got[at(x, y, z)] != expected[at(x, y, z)] && ++wrong <= 5)
          failure << "element (" << x << ", " << y << ", " << z << "): got " << got[at(x, y, z)] << ", expected "
                  << expected[at(x, y, z)] << "\n";
  if (wrong == 0) return ::testing::AssertionSuccess();
  return failure << wrong << " of " << kElements << " elements differ";
}

// The first box ends at the destination's last row and last slice: a copy that left out the end of a volume shows.
constexpr Box kFirstBox{2, 1, 1, 1, kHeight - 3, kDepth - 2, 5, 3, 2};
constexpr Box kSecondBox{0, 4, 2, 8, 5, 3, 7, 2, 1};

RULE_F(MemcpyNode, CopiesThe3DBoxItsParametersDescribe, "PG12.9 6.2.8.7.1.1",
       "a memcpy node added with cudaGraphAddMemcpyNode copies, at each launch, exactly the box its "
       "cudaMemcpy3DParms describe: source and destination positions and the extent, between pitched allocations") {
  std::vector<int> source = source_values();
  Volume from, to;
  from.copy(source, cudaMemcpyHostToDevice);
  Graph graph;
  cudaGraphNode_t node = nullptr;
  const cudaMemcpy3DParms params = box_params(from, to, kFirstBox);
  CUDA_ASSERT(cudaGraphAddMemcpyNode(&node, graph, nullptr, 0, &params));
  EXPECT_EQ(type_of(node), cudaGraphNodeTypeMemcpy);
  GraphExec exec(graph);
  EXPECT_TRUE(same_volume(to.to_host(), std::vector<int>(kElements, 0))) << "the copy ran before the launch";
  CUDA_ASSERT(cudaGraphLaunch(exec, 0));
  CUDA_ASSERT(cudaStreamSynchronize(0));
  EXPECT_TRUE(same_volume(to.to_host(), box_copied(source, kFirstBox)));
  to.clear();
  // The control of the second launch: the destination is zero again, so the box it holds after it is that launch's.
  ASSERT_TRUE(same_volume(to.to_host(), std::vector<int>(kElements, 0))) << "the destination was not cleared";
  CUDA_ASSERT(cudaGraphLaunch(exec, 0));
  CUDA_ASSERT(cudaStreamSynchronize(0));
  EXPECT_TRUE(same_volume(to.to_host(), box_copied(source, kFirstBox))) << "the second launch";
}

RULE_F(MemcpyNodeUpdate, ExecMemcpyNodeSetParamsRefusesA3DNode, "PG12.9 6.2.8.7.5.1",
       "only 1D cudaMemcpy nodes can be changed: cudaGraphExecMemcpyNodeSetParams on a node instantiated with a "
       "3-D box fails, and the instantiated graph goes on copying its original box (update.cu changes 1-D nodes)") {
  std::vector<int> source = source_values();
  Volume from, to;
  from.copy(source, cudaMemcpyHostToDevice);
  Graph graph;
  cudaGraphNode_t node = nullptr;
  const cudaMemcpy3DParms first = box_params(from, to, kFirstBox);
  CUDA_ASSERT(cudaGraphAddMemcpyNode(&node, graph, nullptr, 0, &first));
  GraphExec exec(graph);
  CUDA_ASSERT(cudaGraphLaunch(exec, 0));
  CUDA_ASSERT(cudaStreamSynchronize(0));
  ASSERT_TRUE(same_volume(to.to_host(), box_copied(source, kFirstBox))) << "before the update";

  to.clear();
  const cudaMemcpy3DParms second = box_params(from, to, kSecondBox);
  EXPECT_NE(cudaGraphExecMemcpyNodeSetParams(exec, node, &second), cudaSuccess)
      << "a 3-D memcpy node was changed, which 6.2.8.7.5.1 does not allow";
  (void)cudaGetLastError();  // the refusal is not a sticky error: the context goes on
  CUDA_ASSERT(cudaGraphLaunch(exec, 0));
  CUDA_ASSERT(cudaStreamSynchronize(0));
  EXPECT_TRUE(same_volume(to.to_host(), box_copied(source, kFirstBox))) << "after the refused update";

  cudaMemcpy3DParms kept{};
  CUDA_ASSERT(cudaGraphMemcpyNodeGetParams(node, &kept));
  EXPECT_EQ(kept.srcPos.y, static_cast<size_t>(kFirstBox.y)) << "the update changed the graph's node";
  EXPECT_EQ(kept.extent.width, kFirstBox.width * sizeof(int)) << "the update changed the graph's node";
}

}  // namespace
}  // namespace graphs
