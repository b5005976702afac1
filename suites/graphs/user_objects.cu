// PG12.9 6.2.8.7.4 CUDA User Objects: reference counts owned by user code, graphs, clones, child graphs and
// executable graphs, and when the destructor runs. Destructors run asynchronously on a CUDA thread, so "has run" is
// polled with a timeout and "has not run" is read after giving a premature destructor time to show.
#include <atomic>
#include <chrono>

#include "cuconform/cuconform.h"
#include "graph_util.h"

namespace graphs {
namespace {

using namespace ordering;

class UserObject : public cuconform::GpuTest {};

// One tracked resource: its destructor raises `destroyed`.
struct Tracked {
  std::atomic<int> destroyed{0};
  cudaUserObject_t object = nullptr;

  explicit Tracked(unsigned initial_refcount) {
    CUDA_CHECK(cudaUserObjectCreate(&object, this, destroy, initial_refcount, cudaUserObjectNoDestructorSync));
  }
  static void CUDART_CB destroy(void* self) { static_cast<Tracked*>(self)->destroyed.fetch_add(1); }

  // Did the destructor run within `ms`? (No CUDA call may be made from the destructor, so it only flags.)
  bool destroyed_within(int ms) const {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (destroyed.load() == 0 && std::chrono::steady_clock::now() < deadline) host_sleep_ms(1);
    return destroyed.load() != 0;
  }
  bool still_alive() const { return !destroyed_within(10); }
};

constexpr int kDestructorWaitMs = 2000;

// Tracked objects are never freed: a failed check may leave a reference that a later destroy releases, and its
// destructor callback must still find the object.
Tracked& make_tracked(unsigned initial_refcount) { return *new Tracked(initial_refcount); }

RULE_F(UserObject, DestructorRunsWhenTheLastUserReferenceIsReleased, "PG12.9 6.2.8.7.4",
       "a user object's destructor runs once its reference count, set at creation and lowered by "
       "cudaUserObjectRelease, reaches zero") {
  Tracked& tracked = make_tracked(2);
  CUDA_ASSERT(cudaUserObjectRelease(tracked.object, 1));
  EXPECT_TRUE(tracked.still_alive()) << "the destructor ran with one reference left";
  CUDA_ASSERT(cudaUserObjectRelease(tracked.object, 1));
  EXPECT_TRUE(tracked.destroyed_within(kDestructorWaitMs)) << "the destructor did not run after the last release";
  EXPECT_EQ(tracked.destroyed.load(), 1);
}

RULE_F(UserObject, ExecutableGraphKeepsItsReferenceUntilItsLaunchCompletes, "PG12.9 6.2.8.7.4",
       "an executable graph retains the references of its source graph; destroyed without being synchronized, it "
       "holds them until its launch completed, then the destructor runs") {
  HostFlags flags(2);
  Tracked& tracked = make_tracked(1);
  Graph graph;
  const volatile int* gate = flags[0];
  volatile int* done = flags[1];
  unsigned long long timeout = kGateTimeout;
  void* args[] = {&gate, &done, &timeout};
  const cudaKernelNodeParams gated = one_thread(reinterpret_cast<void*>(gated_then_done), args);
  cudaGraphNode_t node = nullptr;
  CUDA_ASSERT(cudaGraphAddKernelNode(&node, graph, nullptr, 0, &gated));
  CUDA_ASSERT(cudaGraphRetainUserObject(graph, tracked.object, 1, cudaGraphUserObjectMove));
  GraphExec exec(graph);
  CUDA_ASSERT(
      cudaGraphDestroy(graph.release()));  // destroy the source graph: the executable graph still owns a reference
  EXPECT_TRUE(tracked.still_alive()) << "destroying the graph released the executable graph's reference";
  Stream stream;
  CUDA_ASSERT(cudaGraphLaunch(exec, stream));
  CUDA_ASSERT(cudaGraphExecDestroy(exec.release()));
  const bool alive_while_running = tracked.still_alive();
  flags.raise(0);
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  EXPECT_TRUE(alive_while_running) << "the destructor ran while the launch of the destroyed executable graph ran";
  EXPECT_TRUE(tracked.destroyed_within(kDestructorWaitMs)) << "the destructor did not run after the launch completed";
  EXPECT_EQ(flags.read(1), 1) << "the gated kernel timed out";
}

RULE_F(UserObject, CloneRetainsEveryReferenceWithTheSameMultiplicity, "PG12.9 6.2.8.7.4",
       "a cloned graph retains a copy of every reference owned by the source graph, with the same multiplicity") {
  Tracked& tracked = make_tracked(3);
  Graph graph;
  CUDA_ASSERT(cudaGraphRetainUserObject(graph, tracked.object, 3, cudaGraphUserObjectMove));
  cudaGraph_t clone_handle = nullptr;
  CUDA_ASSERT(cudaGraphClone(&clone_handle, graph));
  Graph clone(clone_handle);
  CUDA_ASSERT(cudaGraphDestroy(graph.release()));
  EXPECT_TRUE(tracked.still_alive()) << "the clone did not retain the source graph's references";
  // The clone holds exactly 3: releasing 2 leaves the object alive, the third destroys it.
  CUDA_ASSERT(cudaGraphReleaseUserObject(clone, tracked.object, 2));
  EXPECT_TRUE(tracked.still_alive()) << "the clone held fewer than 3 references";
  CUDA_ASSERT(cudaGraphReleaseUserObject(clone, tracked.object, 1));
  EXPECT_TRUE(tracked.destroyed_within(kDestructorWaitMs)) << "the clone held more than 3 references";
}

RULE_F(UserObject, ChildGraphReferencesBelongToTheChildNodesGraph, "PG12.9 6.2.8.7.4",
       "references owned by graphs in child graph nodes are associated to the child graphs: the parent's child "
       "node keeps them after the original child graph is destroyed, and releases them with the parent") {
  Tracked& tracked = make_tracked(1);
  Graph child;
  CUDA_ASSERT(cudaGraphRetainUserObject(child, tracked.object, 1, cudaGraphUserObjectMove));
  Graph parent;
  cudaGraphNode_t node = nullptr;
  CUDA_ASSERT(cudaGraphAddChildGraphNode(&node, parent, nullptr, 0, child));
  CUDA_ASSERT(cudaGraphDestroy(child.release()));
  EXPECT_TRUE(tracked.still_alive()) << "the child graph node did not keep the child's reference";
  CUDA_ASSERT(cudaGraphDestroy(parent.release()));
  EXPECT_TRUE(tracked.destroyed_within(kDestructorWaitMs)) << "destroying the parent did not release it";
}

RULE_F(UserObject, ExecUpdateReplacesTheReferencesOfTheExecutableGraph, "PG12.9 6.2.8.7.4",
       "after cudaGraphExecUpdate() the executable graph holds clones of the new source graph's references and "
       "releases those it replaced") {
  Tracked& old_object = make_tracked(1);
  Tracked& new_object = make_tracked(1);
  cuconform::DeviceBuffer<int> slot(1);
  auto build = [&](Tracked& tracked) {
    Graph graph;
    cudaGraphNode_t node = nullptr;
    CUDA_CHECK(cudaGraphAddEmptyNode(&node, graph, nullptr, 0));
    CUDA_CHECK(cudaGraphRetainUserObject(graph, tracked.object, 1, cudaGraphUserObjectMove));
    return graph;
  };
  Graph original = build(old_object);
  Graph updating = build(new_object);
  GraphExec exec(original);
  CUDA_ASSERT(cudaGraphDestroy(original.release()));
  cudaGraphExecUpdateResultInfo info{};
  CUDA_ASSERT(cudaGraphExecUpdate(exec, updating, &info));
  CUDA_ASSERT(cudaGraphDestroy(updating.release()));
  EXPECT_TRUE(old_object.destroyed_within(kDestructorWaitMs)) << "the replaced reference was not released";
  EXPECT_TRUE(new_object.still_alive()) << "the executable graph did not take the new graph's reference";
  CUDA_ASSERT(cudaGraphExecDestroy(exec.release()));
  EXPECT_TRUE(new_object.destroyed_within(kDestructorWaitMs));
}

}  // namespace
}  // namespace graphs
