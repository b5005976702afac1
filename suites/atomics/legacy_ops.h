// The legacy atomic functions (5.4.5.1) as operations for rmw.h, each with its host model: the formula the guide
// gives for the value it stores. Include from .cu files only.
//
// Scope::Device is the function without suffix, Scope::Block its _block form, Scope::System its _system form
// (5.4.5.1: "Atomic APIs without a suffix ... are atomic at scope cuda::thread_scope_device", ...).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <type_traits>
#include <vector>

#include "layout.h"
#include "rmw.h"
#include "values.h"
#include "workloads.h"

namespace atomics {

// The CUDA headers declare _block and _system forms for every legacy function except those on 16-bit types.
template <class T>
inline constexpr bool legacy_has_scoped_forms =
    !std::is_same_v<T, __half> && !std::is_same_v<T, __half2> && !std::is_same_v<T, __nv_bfloat16> &&
    !std::is_same_v<T, __nv_bfloat162> && !std::is_same_v<T, unsigned short>;

template <Scope S, class T>
inline constexpr bool legacy_has =
    S == Scope::Device || ((S == Scope::Block || S == Scope::System) && legacy_has_scoped_forms<T>);

// The variants a legacy rule runs: global (and shared) memory, the plain function (and its _block, _system forms).
template <class T>
std::vector<Variant> legacy_variants(bool on_shared = true) {
  std::vector<Space> spaces = {Space::Global};
  if (on_shared) spaces.push_back(Space::Shared);
  std::vector<Scope> scopes = {Scope::Device};
  if (legacy_has_scoped_forms<T>) scopes.insert(scopes.end(), {Scope::Block, Scope::System});
  return variants(spaces, scopes);
}

// 128-bit atomicExch and atomicCAS and atomicAdd on float2 and float4 need CC 9.0 (5.4.5.1): compiled out below.
#define ATOMICS_LEGACY_CALL(function, ...)                          \
  ATOMICS_SM90_ONLY(sizeof(T) == 16 || std::is_same_v<T, float2>) { \
    if constexpr (S == Scope::Block) {                              \
      return function##_block(__VA_ARGS__);                         \
    } else if constexpr (S == Scope::System) {                      \
      return function##_system(__VA_ARGS__);                        \
    } else {                                                        \
      return function(__VA_ARGS__);                                 \
    }                                                               \
  }

// An operation whose argument is one value of the type, with the given host model.
#define ATOMICS_LEGACY_OP(Name, function, model_expression) \
  struct Name {                                             \
    template <class T>                                      \
    using arg_type = T;                                     \
    template <Scope S, class T>                             \
    static constexpr bool has = legacy_has<S, T>;           \
    template <class T>                                      \
    static constexpr bool on_shared = true;                 \
    template <Scope S, class T>                             \
    __device__ static T apply(T* address, T val) {          \
      ATOMICS_LEGACY_CALL(function, address, val)           \
    }                                                       \
    template <class T>                                      \
    static T model(T old, T val) {                          \
      return model_expression;                              \
    }                                                       \
  }

ATOMICS_LEGACY_OP(LegacySub, atomicSub, subtract(old, val));
ATOMICS_LEGACY_OP(LegacyAnd, atomicAnd, T(old& val));
ATOMICS_LEGACY_OP(LegacyOr, atomicOr, T(old | val));
ATOMICS_LEGACY_OP(LegacyXor, atomicXor, T(old ^ val));
ATOMICS_LEGACY_OP(LegacyMin, atomicMin, std::min(old, val));
ATOMICS_LEGACY_OP(LegacyMax, atomicMax, std::max(old, val));
ATOMICS_LEGACY_OP(LegacyExch, atomicExch, ((void)old, val));
ATOMICS_LEGACY_OP(LegacyInc, atomicInc, T(old >= val ? 0 : old + 1));
ATOMICS_LEGACY_OP(LegacyDec, atomicDec, T((old == 0 || old > val) ? val : old - 1));

// atomicAdd: float2 and float4 only on global memory (5.4.5.1.1).
struct LegacyAdd {
  template <class T>
  using arg_type = T;
  template <Scope S, class T>
  static constexpr bool has = legacy_has<S, T>;
  template <class T>
  static constexpr bool on_shared = !std::is_same_v<T, float2> && !std::is_same_v<T, float4>;
  template <Scope S, class T>
  __device__ static T apply(T* address, T val) {
    ATOMICS_LEGACY_CALL(atomicAdd, address, val)
  }
  template <class T>
  static T model(T old, T val) {
    return add(old, val);
  }
};

// atomicCAS: stores (old == compare ? val : old).
struct LegacyCas {
  template <class T>
  using arg_type = CasArg<T>;
  template <Scope S, class T>
  static constexpr bool has = legacy_has<S, T>;
  template <class T>
  static constexpr bool on_shared = true;
  template <Scope S, class T>
  __device__ static T apply(T* address, CasArg<T> arg) {
    ATOMICS_LEGACY_CALL(atomicCAS, address, arg.compare, arg.val)
  }
  template <class T>
  static T model(T old, CasArg<T> arg) {
    return Value::of(old) == Value::of(arg.compare) ? arg.val : old;
  }
};

}  // namespace atomics
