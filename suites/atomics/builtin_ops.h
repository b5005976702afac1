// The built-in atomic functions (5.4.5.2, __nv_atomic_*) as operations for rmw.h, with relaxed order and the scope
// of the variant, and lists of every order and scope for the rules that run them all. Include from .cu files only.
//
// nvcc alone has these built-ins (and defines __CUDACC_DEVICE_ATOMIC_BUILTINS__); under clang the rules compile their
// device code out and skip.
#pragma once

#include <cuconform/compiler.h>

#include "legacy_ops.h"

#if CUCONFORM_HAS_NV_ATOMIC_BUILTINS && defined(__CUDACC_DEVICE_ATOMIC_BUILTINS__)
#define ATOMICS_HAS_NV_BUILTINS 1
#else
#define ATOMICS_HAS_NV_BUILTINS 0
#endif

namespace atomics {

[[maybe_unused]] constexpr const char* kNoNvBuiltins = "clang has no __nv_atomic_* built-ins";

// What a compare-exchange reports: the value of *expected after the call (old on failure, unchanged on success)
// and the bool it returned.
template <class T>
struct CompareExchangeOut {
  T expected;
  int succeeded;
};

#if ATOMICS_HAS_NV_BUILTINS

#define ATOMICS_EXPAND(...) __VA_ARGS__

// `keyword builtin(args..., scope)` with the scope literal of S (order and scope must be integer literals, 5.4.5.2).
#define ATOMICS_NV_SCOPED(keyword, builtin, args)                    \
  if constexpr (S == Scope::Thread) {                                \
    keyword builtin(ATOMICS_EXPAND args, __NV_THREAD_SCOPE_THREAD);  \
  } else if constexpr (S == Scope::Block) {                          \
    keyword builtin(ATOMICS_EXPAND args, __NV_THREAD_SCOPE_BLOCK);   \
  } else if constexpr (S == Scope::Cluster) {                        \
    keyword builtin(ATOMICS_EXPAND args, __NV_THREAD_SCOPE_CLUSTER); \
  } else if constexpr (S == Scope::Device) {                         \
    keyword builtin(ATOMICS_EXPAND args, __NV_THREAD_SCOPE_DEVICE);  \
  } else {                                                           \
    keyword builtin(ATOMICS_EXPAND args, __NV_THREAD_SCOPE_SYSTEM);  \
  }

// __nv_atomic_fetch_<op> (returns old) and __nv_atomic_<op> (returns nothing), relaxed.
#define ATOMICS_NV_RMW_OPS(FetchName, VoidName, fetch_builtin, void_builtin, model_expression) \
  struct FetchName {                                                                           \
    template <class T>                                                                         \
    using arg_type = T;                                                                        \
    template <Scope S, class T>                                                                \
    static constexpr bool has = true;                                                          \
    template <class T>                                                                         \
    static constexpr bool on_shared = true;                                                    \
    template <Scope S, class T>                                                                \
    __device__ static T apply(T* address, T val) {                                             \
      ATOMICS_NV_SCOPED(return, fetch_builtin, (address, val, __NV_ATOMIC_RELAXED))            \
    }                                                                                          \
    template <class T>                                                                         \
    static T model(T old, T val) {                                                             \
      return model_expression;                                                                 \
    }                                                                                          \
  };                                                                                           \
  struct VoidName : FetchName {                                                                \
    static constexpr bool returns_old = false;                                                 \
    template <Scope S, class T>                                                                \
    __device__ static T apply(T* address, T val) {                                             \
      ATOMICS_NV_SCOPED(, void_builtin, (address, val, __NV_ATOMIC_RELAXED))                   \
      return T{};                                                                              \
    }                                                                                          \
  }

ATOMICS_NV_RMW_OPS(NvFetchAdd, NvAdd, __nv_atomic_fetch_add, __nv_atomic_add, add(old, val));
ATOMICS_NV_RMW_OPS(NvFetchSub, NvSub, __nv_atomic_fetch_sub, __nv_atomic_sub, subtract(old, val));
ATOMICS_NV_RMW_OPS(NvFetchAnd, NvAnd, __nv_atomic_fetch_and, __nv_atomic_and, T(old& val));
ATOMICS_NV_RMW_OPS(NvFetchOr, NvOr, __nv_atomic_fetch_or, __nv_atomic_or, T(old | val));
ATOMICS_NV_RMW_OPS(NvFetchXor, NvXor, __nv_atomic_fetch_xor, __nv_atomic_xor, T(old ^ val));
ATOMICS_NV_RMW_OPS(NvFetchMin, NvMin, __nv_atomic_fetch_min, __nv_atomic_min, std::min(old, val));
ATOMICS_NV_RMW_OPS(NvFetchMax, NvMax, __nv_atomic_fetch_max, __nv_atomic_max, std::max(old, val));

// __nv_atomic_exchange_n: returns old, stores val.
struct NvExchangeN {
  template <class T>
  using arg_type = T;
  template <Scope S, class T>
  static constexpr bool has = true;
  template <class T>
  static constexpr bool on_shared = true;
  template <Scope S, class T>
  __device__ static T apply(T* address, T val) {
    ATOMICS_SM90_ONLY(sizeof(T) == 16) {
      ATOMICS_NV_SCOPED(return, __nv_atomic_exchange_n, (address, val, __NV_ATOMIC_RELAXED))
    }
  }
  template <class T>
  static T model(T, T val) {
    return val;
  }
};

// __nv_atomic_exchange: stores old to *ret and *val to *address.
struct NvExchange : NvExchangeN {
  template <Scope S, class T>
  __device__ static T apply(T* address, T val) {
    ATOMICS_SM90_ONLY(sizeof(T) == 16) {
      T ret;
      ATOMICS_NV_SCOPED(, __nv_atomic_exchange, (address, &val, &ret, __NV_ATOMIC_RELAXED))
      return ret;
    }
  }
};

// __nv_atomic_compare_exchange_n and __nv_atomic_compare_exchange (Pointer), strong or weak, relaxed.
template <bool Pointer, bool Weak>
struct NvCompareExchange {
  template <class T>
  using arg_type = CasArg<T>;
  template <class T>
  using out_type = CompareExchangeOut<T>;
  template <Scope S, class T>
  static constexpr bool has = true;
  template <class T>
  static constexpr bool on_shared = true;
  template <Scope S, class T>
  __device__ static CompareExchangeOut<T> apply(T* address, CasArg<T> arg) {
    ATOMICS_SM90_ONLY(sizeof(T) == 16) {
      T expected = arg.compare;
      bool succeeded;
      if constexpr (Pointer) {
        ATOMICS_NV_SCOPED(succeeded =, __nv_atomic_compare_exchange,
                          (address, &expected, &arg.val, Weak, __NV_ATOMIC_RELAXED, __NV_ATOMIC_RELAXED))
      } else {
        ATOMICS_NV_SCOPED(succeeded =, __nv_atomic_compare_exchange_n,
                          (address, &expected, arg.val, Weak, __NV_ATOMIC_RELAXED, __NV_ATOMIC_RELAXED))
      }
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

// __nv_atomic_load_n / __nv_atomic_load (Pointer): returns the value; the address keeps it.
template <bool Pointer>
struct NvLoad {
  template <class T>
  using arg_type = T;  // unused
  template <Scope S, class T>
  static constexpr bool has = true;
  template <class T>
  static constexpr bool on_shared = true;
  template <Scope S, class T>
  __device__ static T apply(T* address, T) {
    if constexpr (Pointer) {
      T ret;
      ATOMICS_NV_SCOPED(, __nv_atomic_load, (address, &ret, __NV_ATOMIC_RELAXED))
      return ret;
    } else {
      ATOMICS_NV_SCOPED(return, __nv_atomic_load_n, (address, __NV_ATOMIC_RELAXED))
    }
  }
  template <class T>
  static T model(T old, T) {
    return old;
  }
};

// __nv_atomic_store_n / __nv_atomic_store (Pointer): stores val; returns nothing.
template <bool Pointer>
struct NvStore {
  static constexpr bool returns_old = false;
  template <class T>
  using arg_type = T;
  template <Scope S, class T>
  static constexpr bool has = true;
  template <class T>
  static constexpr bool on_shared = true;
  template <Scope S, class T>
  __device__ static T apply(T* address, T val) {
    if constexpr (Pointer) {
      ATOMICS_NV_SCOPED(, __nv_atomic_store, (address, &val, __NV_ATOMIC_RELAXED))
    } else {
      ATOMICS_NV_SCOPED(, __nv_atomic_store_n, (address, val, __NV_ATOMIC_RELAXED))
    }
    return T{};
  }
  template <class T>
  static T model(T, T val) {
    return val;
  }
};

#endif  // ATOMICS_HAS_NV_BUILTINS

// The body of a rule, when the compiler has the built-ins; otherwise the rule skips.
#if ATOMICS_HAS_NV_BUILTINS
#define ATOMICS_WITH_NV_BUILTINS(...) __VA_ARGS__
#else
#define ATOMICS_WITH_NV_BUILTINS(...) SKIP_COMPILED_OUT(::atomics::kNoNvBuiltins)
#endif

// The variants of the built-in type rules: contention across the grid at device scope, and within a block on shared
// memory at block scope. (Every scope and order: builtin_orders_scopes.cu; the default scope: builtin_system.cu.)
inline std::vector<Variant> builtin_variants() {
  return {{Space::Global, Scope::Device}, {Space::Shared, Scope::Block}};
}
// An operation of those rules: kernels for those two scopes only.
template <class Op>
using AtDeviceOrBlockScope = OnlyScopes<Op, Scope::Device, Scope::Block>;

// A rule parameter: the value type and the variant. Rules run their typed code through with_type.
enum class Type {
  Int,
  Unsigned,
  LongLong,
  UnsignedLongLong,
  Float,
  Double,
  UnsignedChar,
  UnsignedShort,
  UnsignedInt128,
  Byte,
  TwoBytes,
  Pair
};

template <class T>
constexpr Type type_of() {
  if constexpr (std::is_same_v<T, int>) return Type::Int;
  else if constexpr (std::is_same_v<T, unsigned>) return Type::Unsigned;
  else if constexpr (std::is_same_v<T, long long>) return Type::LongLong;
  else if constexpr (std::is_same_v<T, unsigned long long>) return Type::UnsignedLongLong;
  else if constexpr (std::is_same_v<T, float>) return Type::Float;
  else if constexpr (std::is_same_v<T, double>) return Type::Double;
  else if constexpr (std::is_same_v<T, unsigned char>) return Type::UnsignedChar;
  else if constexpr (std::is_same_v<T, unsigned short>) return Type::UnsignedShort;
  else if constexpr (std::is_same_v<T, unsigned __int128>) return Type::UnsignedInt128;
  else if constexpr (std::is_same_v<T, Byte>) return Type::Byte;
  else if constexpr (std::is_same_v<T, TwoBytes>) return Type::TwoBytes;
  else return Type::Pair;
}

inline std::string name_of(Type t) {
  switch (t) {
    case Type::Int: return "Int";
    case Type::Unsigned: return "Unsigned";
    case Type::LongLong: return "LongLong";
    case Type::UnsignedLongLong: return "UnsignedLongLong";
    case Type::Float: return "Float";
    case Type::Double: return "Double";
    case Type::UnsignedChar: return "UnsignedChar";
    case Type::UnsignedShort: return "UnsignedShort";
    case Type::UnsignedInt128: return "UnsignedInt128";
    case Type::Byte: return "OneByteStruct";
    case Type::TwoBytes: return "TwoByteStruct";
    case Type::Pair: return "SixteenByteStruct";
  }
  return "?";
}

struct TypedVariant {
  Type type;
  Variant variant;
};

inline std::string typed_variant_name(const ::testing::TestParamInfo<TypedVariant>& info) {
  return name_of(info.param.type) + name_of(info.param.variant);
}
inline void PrintTo(const TypedVariant& p, std::ostream* out) { *out << name_of(p.type) << " " << name_of(p.variant); }

// Every type Ts in every variant.
template <class... Ts>
std::vector<TypedVariant> typed_variants(const std::vector<Variant>& variants) {
  std::vector<TypedVariant> all;
  for (Type t : {type_of<Ts>()...}) {
    for (const Variant& v : variants) all.push_back({t, v});
  }
  return all;
}

template <class T>
struct TypeTag {
  using type = T;
};

// Calls f(TypeTag<T>{}) for the T among Ts that `t` names.
template <class... Ts, class F>
void with_type(Type t, F f) {
  const bool found = ((t == type_of<Ts>() ? (f(TypeTag<Ts>{}), true) : false) || ...);
  if (!found) throw std::logic_error("type " + name_of(t) + " is not one of this rule's types");
}

}  // namespace atomics
