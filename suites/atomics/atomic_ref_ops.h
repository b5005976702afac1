// The operations of cuda::atomic_ref<T, Scope> (libcu++ "cuda::atomic_ref" page) as operations for rmw.h, at the
// thread_scope of the variant (thread, block, device, system; libcu++ 3.0 has no cluster scope) and the default
// memory order (seq_cst). Include from .cu files only.
#pragma once

#include <cuda/atomic>
#include <cuda/std/version>

#include "builtin_ops.h"  // CompareExchangeOut, the type-parameter helpers
#include "legacy_ops.h"

// libcu++ 3.0 (CUDA 13.0) cannot compile atomic_ref<T>::load and compare_exchange_* for 16-byte T: its inline PTX
// has the operands of ld.b128 reversed and names struct members that do not exist. Rules that need them compile
// them out on these versions and skip; the compile-time rules report the failure itself.
#if defined(CCCL_VERSION) && CCCL_VERSION < 3001000
#define ATOMICS_REF_16_BYTE_LOAD_AND_CAS_BUILD 0
#else
#define ATOMICS_REF_16_BYTE_LOAD_AND_CAS_BUILD 1
#endif

namespace atomics {

template <Scope S>
inline constexpr cuda::thread_scope ref_scope = S == Scope::Thread   ? cuda::thread_scope_thread
                                                : S == Scope::Block  ? cuda::thread_scope_block
                                                : S == Scope::Device ? cuda::thread_scope_device
                                                                     : cuda::thread_scope_system;

template <Scope S>
inline constexpr bool has_ref_scope = S != Scope::Cluster;

// An atomic_ref read-modify-write `expression` (on `ref` and `val`), returning what it returns, with the host model;
// on a 16-byte T these need SM90 (libcu++ atomic_ref page), so code for lower targets compiles them out.
#define ATOMICS_REF_OP(Name, expression, model_expression) \
  struct Name {                                            \
    template <class T>                                     \
    using arg_type = T;                                    \
    template <Scope S, class T>                            \
    static constexpr bool has = has_ref_scope<S>;          \
    template <class T>                                     \
    static constexpr bool on_shared = true;                \
    template <Scope S, class T>                            \
    __device__ static T apply(T* address, T val) {         \
      ATOMICS_SM90_ONLY(sizeof(T) == 16) {                 \
        cuda::atomic_ref<T, ref_scope<S>> ref(*address);   \
        return expression;                                 \
      }                                                    \
    }                                                      \
    template <class T>                                     \
    static T model(T old, T val) {                         \
      return model_expression;                             \
    }                                                      \
  }

ATOMICS_REF_OP(RefFetchAdd, ref.fetch_add(val), add(old, val));
ATOMICS_REF_OP(RefFetchSub, ref.fetch_sub(val), subtract(old, val));
ATOMICS_REF_OP(RefFetchAnd, ref.fetch_and(val), T(old& val));
ATOMICS_REF_OP(RefFetchOr, ref.fetch_or(val), T(old | val));
ATOMICS_REF_OP(RefFetchXor, ref.fetch_xor(val), T(old ^ val));
ATOMICS_REF_OP(RefFetchMin, ref.fetch_min(val), std::min(old, val));
ATOMICS_REF_OP(RefFetchMax, ref.fetch_max(val), std::max(old, val));
ATOMICS_REF_OP(RefExchange, ref.exchange(val), ((void)old, val));
ATOMICS_REF_OP(RefFetchAddRelaxed, ref.fetch_add(val, cuda::std::memory_order_relaxed), add(old, val));
ATOMICS_REF_OP(RefPostIncrement, ((void)val, ref++), T(old + 1));
ATOMICS_REF_OP(RefPostDecrement, ((void)val, ref--), T(old - 1));

// load(): SM70 and later for a 16-byte T, as store.
struct RefLoad {
  template <class T>
  using arg_type = T;
  template <Scope S, class T>
  static constexpr bool has = has_ref_scope<S>;
  template <class T>
  static constexpr bool on_shared = true;
  template <Scope S, class T>
  __device__ static T apply(T* address, T) {
    return cuda::atomic_ref<T, ref_scope<S>>(*address).load();
  }
  template <class T>
  static T model(T old, T) {
    return old;
  }
};

// store(val): returns nothing.
struct RefStore {
  static constexpr bool returns_old = false;
  template <class T>
  using arg_type = T;
  template <Scope S, class T>
  static constexpr bool has = has_ref_scope<S>;
  template <class T>
  static constexpr bool on_shared = true;
  template <Scope S, class T>
  __device__ static T apply(T* address, T val) {
    cuda::atomic_ref<T, ref_scope<S>>(*address).store(val);
    return T{};
  }
  template <class T>
  static T model(T, T val) {
    return val;
  }
};

// Whether two values have the same bits (what compare_exchange compares).
template <class T>
__device__ bool same_object_bits(const T& a, const T& b) {
  const unsigned char* x = reinterpret_cast<const unsigned char*>(&a);
  const unsigned char* y = reinterpret_cast<const unsigned char*>(&b);
  for (unsigned k = 0; k < sizeof(T); ++k) {
    if (x[k] != y[k]) return false;
  }
  return true;
}

// compare_exchange_strong, or compare_exchange_weak retried while it fails without a different value (which C++
// allows it to do spuriously), with one memory order or a success/failure pair.
template <bool Weak, bool TwoOrders>
struct RefCompareExchange {
  template <class T>
  using arg_type = CasArg<T>;
  template <class T>
  using out_type = CompareExchangeOut<T>;
  template <Scope S, class T>
  static constexpr bool has = has_ref_scope<S>;
  template <class T>
  static constexpr bool on_shared = true;
  template <Scope S, class T>
  __device__ static CompareExchangeOut<T> apply(T* address, CasArg<T> arg) {
    ATOMICS_SM90_ONLY(sizeof(T) == 16) {  // SM90 and later for a 16-byte T
      cuda::atomic_ref<T, ref_scope<S>> ref(*address);
      T expected = arg.compare;
      bool succeeded;
      do {
        if constexpr (Weak && TwoOrders) {
          succeeded = ref.compare_exchange_weak(expected, arg.val, cuda::std::memory_order_acq_rel,
                                                cuda::std::memory_order_acquire);
        } else if constexpr (Weak) {
          succeeded = ref.compare_exchange_weak(expected, arg.val);
        } else if constexpr (TwoOrders) {
          succeeded = ref.compare_exchange_strong(expected, arg.val, cuda::std::memory_order_acq_rel,
                                                  cuda::std::memory_order_acquire);
        } else {
          succeeded = ref.compare_exchange_strong(expected, arg.val);
        }
      } while (Weak && !succeeded && same_object_bits(expected, arg.compare));
      return {expected, succeeded};
    }
  }
  template <class T>
  static T model(T old, CasArg<T> arg) {
    return LegacyCas::model(old, arg);
  }
  template <class T>
  static CompareExchangeOut<T> out_of(T old, CasArg<T> arg) {
    return {old, Value::of(old) == Value::of(arg.compare)};
  }
};

}  // namespace atomics
