// The orderings a litmus test is run with: how each thread reads and writes its locations and what it puts between
// its two accesses. A shape calls O::load, O::store and O::fence<Gap>; the ordering decides what they compile to.
//
// Every access is defined behaviour: racing accesses are relaxed atomics (cuda::atomic_ref, relaxed), volatile
// accesses (ld.volatile / st.volatile, which the PTX memory model treats as relaxed system-scope operations), or
// legacy atomic functions. Plain racing accesses (undefined behaviour in C++) are never used.
//
// Names (the `ordering` of spec/litmus/outcomes.toml; outcomes_table.py maps them to these types):
//   Volatile, Relaxed, LegacyAtomics           no fence
//   [Volatile|Legacy]Threadfence{Block,,System} __threadfence_block / __threadfence / __threadfence_system
//   [Volatile]CudaFence<Order><Scope>            cuda::atomic_thread_fence(order, scope)
//   [Volatile]NvFence<Order><Scope>              __nv_atomic_thread_fence(order, scope)
//   Ref<RelAcq|SeqCst><Scope>                    cuda::atomic_ref<int, scope>: release stores and acquire loads,
//                                                or all seq_cst
//   Nv<RelAcq|SeqCst><Scope>                     __nv_atomic_store_n / __nv_atomic_load_n, likewise
//   RefRmwRelAcq<Scope>                          cuda::atomic_ref<int, scope> read-modify-writes: a store is
//                                                exchange(v, release), a load fetch_add(0, acquire)
// Order of a fence: Acquire, Release, AcqRel, SeqCst, or RelAcq (release fence before a write, acquire fence after a
// read, acq_rel where both apply: the minimal fencing of message passing).
#pragma once

#include <cuda/atomic>

#include "cuconform/compiler.h"

namespace litmus {

// What a fence separates: the thread's access before it and its access after it.
enum class Gap { WW, WR, RR, RW };
enum class Order { Acquire, Release, AcqRel, SeqCst, RelAcq };
enum class Scope { Block, Cluster, Device, System };

// ---- Accesses without ordering of their own --------------------------------------------------------------------

struct VolatileAccess {
  template <cuda::thread_scope>
  __device__ static int load(int* p) {
    return *static_cast<volatile int*>(p);
  }
  template <cuda::thread_scope>
  __device__ static void store(int* p, int value) {
    *static_cast<volatile int*>(p) = value;
  }
};

// Relaxed atomics at the access scope of the placement (device, or system across GPUs).
struct RelaxedAccess {
  template <cuda::thread_scope S>
  __device__ static int load(int* p) {
    return cuda::atomic_ref<int, S>(*p).load(cuda::memory_order_relaxed);
  }
  template <cuda::thread_scope S>
  __device__ static void store(int* p, int value) {
    cuda::atomic_ref<int, S>(*p).store(value, cuda::memory_order_relaxed);
  }
};

// Legacy atomic functions (5.4.5.1): relaxed, device scope. A load is atomicAdd(p, 0), a store atomicExch.
struct LegacyAccess {
  template <cuda::thread_scope>
  __device__ static int load(int* p) {
    return atomicAdd(p, 0);
  }
  template <cuda::thread_scope>
  __device__ static void store(int* p, int value) {
    (void)atomicExch(p, value);
  }
};

// ---- Fences ----------------------------------------------------------------------------------------------------

struct NoFence {
  static constexpr bool kCompiled = true;
  template <Gap>
  __device__ static void at() {}
};

struct ThreadfenceBlock {
  static constexpr bool kCompiled = true;
  template <Gap>
  __device__ static void at() {
    __threadfence_block();
  }
};
struct Threadfence {
  static constexpr bool kCompiled = true;
  template <Gap>
  __device__ static void at() {
    __threadfence();
  }
};
struct ThreadfenceSystem {
  static constexpr bool kCompiled = true;
  template <Gap>
  __device__ static void at() {
    __threadfence_system();
  }
};

// The order a fence of order O has at gap G (RelAcq picks by gap).
template <Order O, Gap G>
__host__ __device__ constexpr Order order_at() {
  if constexpr (O != Order::RelAcq) {
    return O;
  } else if constexpr (G == Gap::WW) {
    return Order::Release;
  } else if constexpr (G == Gap::RR) {
    return Order::Acquire;
  } else {
    return Order::AcqRel;
  }
}

__host__ __device__ constexpr cuda::memory_order cuda_order(Order o) {
  switch (o) {
    case Order::Acquire: return cuda::memory_order_acquire;
    case Order::Release: return cuda::memory_order_release;
    case Order::AcqRel: return cuda::memory_order_acq_rel;
    default: return cuda::memory_order_seq_cst;
  }
}

// libcu++ has no cluster scope; outcomes_table.py rejects Cuda/Ref orderings with it.
__host__ __device__ constexpr cuda::thread_scope cuda_scope(Scope s) {
  switch (s) {
    case Scope::Block: return cuda::thread_scope_block;
    case Scope::Device: return cuda::thread_scope_device;
    default: return cuda::thread_scope_system;
  }
}

template <Order O, Scope S>
struct CudaFence {
  static_assert(S != Scope::Cluster, "libcu++ has no cluster scope");
  static constexpr bool kCompiled = true;
  template <Gap G>
  __device__ static void at() {
    cuda::atomic_thread_fence(cuda_order(order_at<O, G>()), cuda_scope(S));
  }
};

#if CUCONFORM_HAS_NV_ATOMIC_BUILTINS
// The built-ins take their order and scope as integer literals only (5.4.5.2): spell each one out.
#define LITMUS_NV_SCOPED(S, operation)        \
  if constexpr (S == Scope::Block) {          \
    operation(__NV_THREAD_SCOPE_BLOCK);       \
  } else if constexpr (S == Scope::Cluster) { \
    operation(__NV_THREAD_SCOPE_CLUSTER);     \
  } else if constexpr (S == Scope::Device) {  \
    operation(__NV_THREAD_SCOPE_DEVICE);      \
  } else {                                    \
    operation(__NV_THREAD_SCOPE_SYSTEM);      \
  }
#define LITMUS_NV_FENCE_ACQUIRE(scope) __nv_atomic_thread_fence(__NV_ATOMIC_ACQUIRE, scope)
#define LITMUS_NV_FENCE_RELEASE(scope) __nv_atomic_thread_fence(__NV_ATOMIC_RELEASE, scope)
#define LITMUS_NV_FENCE_ACQ_REL(scope) __nv_atomic_thread_fence(__NV_ATOMIC_ACQ_REL, scope)
#define LITMUS_NV_FENCE_SEQ_CST(scope) __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, scope)
#define LITMUS_NV_LOAD_ACQUIRE(scope) value = __nv_atomic_load_n(p, __NV_ATOMIC_ACQUIRE, scope)
#define LITMUS_NV_LOAD_SEQ_CST(scope) value = __nv_atomic_load_n(p, __NV_ATOMIC_SEQ_CST, scope)
#define LITMUS_NV_STORE_RELEASE(scope) __nv_atomic_store_n(p, value, __NV_ATOMIC_RELEASE, scope)
#define LITMUS_NV_STORE_SEQ_CST(scope) __nv_atomic_store_n(p, value, __NV_ATOMIC_SEQ_CST, scope)

template <Order O, Scope S>
struct NvFence {
  static constexpr bool kCompiled = true;
  template <Gap G>
  __device__ static void at() {
    constexpr Order order = order_at<O, G>();
    if constexpr (order == Order::Acquire) {
      LITMUS_NV_SCOPED(S, LITMUS_NV_FENCE_ACQUIRE)
    } else if constexpr (order == Order::Release) {
      LITMUS_NV_SCOPED(S, LITMUS_NV_FENCE_RELEASE)
    } else if constexpr (order == Order::AcqRel) {
      LITMUS_NV_SCOPED(S, LITMUS_NV_FENCE_ACQ_REL)
    } else {
      LITMUS_NV_SCOPED(S, LITMUS_NV_FENCE_SEQ_CST)
    }
  }
};
#else
// Compiled out: this compiler has no __nv_atomic_* built-ins (the case skips, saying so).
template <Order O, Scope S>
struct NvFence {
  static constexpr bool kCompiled = false;
  template <Gap>
  __device__ static void at() {}
};
#endif

// ---- Orderings: what a shape calls -----------------------------------------------------------------------------

template <class Access, class Fence>
struct Fenced {
  static constexpr bool kCompiled = Fence::kCompiled;
  template <cuda::thread_scope S>
  __device__ static int load(int* p) {
    return Access::template load<S>(p);
  }
  template <cuda::thread_scope S>
  __device__ static void store(int* p, int value) {
    Access::template store<S>(p, value);
  }
  template <Gap G>
  __device__ static void fence() {
    Fence::template at<G>();
  }
};

using Volatile = Fenced<VolatileAccess, NoFence>;
using Relaxed = Fenced<RelaxedAccess, NoFence>;
using LegacyAtomics = Fenced<LegacyAccess, NoFence>;

enum class Api { Ref, Nv };

// Ordered atomics: every load Acquire (or SeqCst), every store Release (or SeqCst), at the given scope; no fences.
template <Api A, Order O, Scope S>
struct Atomics {
  static_assert(O == Order::RelAcq || O == Order::SeqCst, "atomics are RelAcq or SeqCst");
  static_assert(A == Api::Nv || S != Scope::Cluster, "libcu++ has no cluster scope");
  static constexpr bool kCompiled = A == Api::Ref || CUCONFORM_HAS_NV_ATOMIC_BUILTINS;

  template <cuda::thread_scope>
  __device__ static int load(int* p) {
    if constexpr (A == Api::Ref) {
      return cuda::atomic_ref<int, cuda_scope(S)>(*p).load(O == Order::SeqCst ? cuda::memory_order_seq_cst
                                                                              : cuda::memory_order_acquire);
    } else {
      int value = 0;
#if CUCONFORM_HAS_NV_ATOMIC_BUILTINS
      if constexpr (O == Order::SeqCst) {
        LITMUS_NV_SCOPED(S, LITMUS_NV_LOAD_SEQ_CST)
      } else {
        LITMUS_NV_SCOPED(S, LITMUS_NV_LOAD_ACQUIRE)
      }
#endif
      return value;
    }
  }
  template <cuda::thread_scope>
  __device__ static void store(int* p, int value) {
    if constexpr (A == Api::Ref) {
      cuda::atomic_ref<int, cuda_scope(S)>(*p).store(value, O == Order::SeqCst ? cuda::memory_order_seq_cst
                                                                               : cuda::memory_order_release);
    } else {
#if CUCONFORM_HAS_NV_ATOMIC_BUILTINS
      if constexpr (O == Order::SeqCst) {
        LITMUS_NV_SCOPED(S, LITMUS_NV_STORE_SEQ_CST)
      } else {
        LITMUS_NV_SCOPED(S, LITMUS_NV_STORE_RELEASE)
      }
#else
      (void)p;
      (void)value;
#endif
    }
  }
  template <Gap>
  __device__ static void fence() {}
};

// Ordered read-modify-writes (atomic_ref, [atomics.ref.ops]): every store an exchange with release, every load a
// fetch_add of 0 with acquire, at the given scope; no fences. The relaxed counterpart is LegacyAtomics (atomicExch and
// atomicAdd(p, 0): the same atom instructions without an order), its sibling.
template <Scope S>
struct RmwAtomics {
  static_assert(S != Scope::Cluster, "libcu++ has no cluster scope");
  static constexpr bool kCompiled = true;

  template <cuda::thread_scope>
  __device__ static int load(int* p) {
    return cuda::atomic_ref<int, cuda_scope(S)>(*p).fetch_add(0, cuda::memory_order_acquire);
  }
  template <cuda::thread_scope>
  __device__ static void store(int* p, int value) {
    (void)cuda::atomic_ref<int, cuda_scope(S)>(*p).exchange(value, cuda::memory_order_release);
  }
  template <Gap>
  __device__ static void fence() {}
};

// ---- The host thread's side (HostThread placement) ---------------------------------------------------------------
// A host thread runs the same shape with the C++ counterpart of the GPU's ordering, through libcu++ on the host:
// relaxed or volatile accesses stay so; a legacy __threadfence* becomes the host's seq_cst fence (the guide calls
// them sequentially consistent); cuda/nv fences keep their order; ordered atomics keep their order, at system scope.

namespace host {

struct RelaxedAccess {
  template <cuda::thread_scope>
  static int load(int* p) {
    return cuda::atomic_ref<int, cuda::thread_scope_system>(*p).load(cuda::memory_order_relaxed);
  }
  template <cuda::thread_scope>
  static void store(int* p, int value) {
    cuda::atomic_ref<int, cuda::thread_scope_system>(*p).store(value, cuda::memory_order_relaxed);
  }
};

struct VolatileAccess {
  template <cuda::thread_scope>
  static int load(int* p) {
    return *static_cast<volatile int*>(p);
  }
  template <cuda::thread_scope>
  static void store(int* p, int value) {
    *static_cast<volatile int*>(p) = value;
  }
};

struct NoFence {
  template <Gap>
  static void at() {}
};

template <Order O>
struct Fence {
  template <Gap G>
  static void at() {
    cuda::atomic_thread_fence(cuda_order(order_at<O, G>()), cuda::thread_scope_system);
  }
};

template <class Access, class F>
struct Fenced {
  template <cuda::thread_scope S>
  static int load(int* p) {
    return Access::template load<S>(p);
  }
  template <cuda::thread_scope S>
  static void store(int* p, int value) {
    Access::template store<S>(p, value);
  }
  template <Gap G>
  static void fence() {
    F::template at<G>();
  }
};

template <Order O>
struct Atomics {
  template <cuda::thread_scope>
  static int load(int* p) {
    return cuda::atomic_ref<int, cuda::thread_scope_system>(*p).load(O == Order::SeqCst ? cuda::memory_order_seq_cst
                                                                                        : cuda::memory_order_acquire);
  }
  template <cuda::thread_scope>
  static void store(int* p, int value) {
    cuda::atomic_ref<int, cuda::thread_scope_system>(*p).store(value, O == Order::SeqCst ? cuda::memory_order_seq_cst
                                                                                         : cuda::memory_order_release);
  }
  template <Gap>
  static void fence() {}
};

template <class A>
struct AccessOf {
  using type = RelaxedAccess;  // relaxed atomics, and the legacy atomics' relaxed accesses
};
template <>
struct AccessOf<::litmus::VolatileAccess> {
  using type = VolatileAccess;
};

template <class F>
struct FenceOf {
  using type = Fence<Order::SeqCst>;  // __threadfence_block / __threadfence / __threadfence_system
};
template <>
struct FenceOf<::litmus::NoFence> {
  using type = NoFence;
};
template <Order O, Scope S>
struct FenceOf<::litmus::CudaFence<O, S>> {
  using type = Fence<O>;
};
template <Order O, Scope S>
struct FenceOf<::litmus::NvFence<O, S>> {
  using type = Fence<O>;
};

}  // namespace host

template <class O>
struct HostOf;
template <class A, class F>
struct HostOf<Fenced<A, F>> {
  using type = host::Fenced<typename host::AccessOf<A>::type, typename host::FenceOf<F>::type>;
};
template <Api A, Order O, Scope S>
struct HostOf<Atomics<A, O, S>> {
  using type = host::Atomics<O>;
};
template <Scope S>
struct HostOf<RmwAtomics<S>> {
  using type = host::Atomics<Order::RelAcq>;  // the host thread's release stores and acquire loads
};

}  // namespace litmus
