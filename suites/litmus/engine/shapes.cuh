// The litmus shapes: what each role does, and the shape's outcome space with its weak outcome.
// x, y, z are an instance's locations (initially 0 unless said otherwise); r0.. the registers roles read into.
// `fence` is the ordering's fence for that gap (nothing for unfenced orderings); every load/store is the ordering's.
#pragma once

#include <cuda/atomic>

#include "orderings.cuh"
#include "outcomes.h"

namespace litmus {

constexpr Observable reg(uint32_t index, int32_t a, int32_t b) { return {-1, index, 2, {a, b, 0}}; }
constexpr Observable reg3(uint32_t index, int32_t a, int32_t b, int32_t c) { return {-1, index, 3, {a, b, c}}; }
constexpr Observable final_value(int32_t location, int32_t a, int32_t b) { return {location, 0, 2, {a, b, 0}}; }

// nvcc checks that a __host__ __device__ function calls only what both sides can; a shape runs on the host with host
// orderings and on the device with device orderings, so that check is off for the calls below.
#if defined(__NVCC__)
#define LITMUS_EITHER_SIDE _Pragma("nv_exec_check_disable")
#else
#define LITMUS_EITHER_SIDE
#endif

// Loads, stores and fences of ordering O with access scope A, spelled short for the shapes below. A shape runs on
// a GPU thread with a device ordering, or on a host thread (HostThread placement) with its host counterpart.
template <class O, cuda::thread_scope A>
struct Ops {
  LITMUS_EITHER_SIDE
  __host__ __device__ static int ld(int* p) { return O::template load<A>(p); }
  LITMUS_EITHER_SIDE
  __host__ __device__ static void st(int* p, int v) { O::template store<A>(p, v); }
  LITMUS_EITHER_SIDE
  template <Gap G>
  __host__ __device__ static void fence() {
    O::template fence<G>();
  }
};

enum Loc { X = 0, Y = 1, Z = 2 };

// Message passing. Weak: the reader sees the flag but not the data.
struct MP {
  static constexpr ShapeInfo info{"MP",
                                  "T0: x=1; fence; y=1 | T1: r0=y; fence; r1=x",
                                  {2, 2, 2, 2, {0, 0, 0}, {reg(0, 0, 1), reg(1, 0, 1)}, {1, 0}},
                                  {"r0", "r1"}};
  template <class O, cuda::thread_scope A>
  __host__ __device__ static void run(uint32_t role, int* const* loc, int* reg) {
    using Op = Ops<O, A>;
    if (role == 0) {
      Op::st(loc[X], 1);
      Op::template fence<Gap::WW>();
      Op::st(loc[Y], 1);
    } else {
      const int r0 = Op::ld(loc[Y]);
      Op::template fence<Gap::RR>();
      const int r1 = Op::ld(loc[X]);
      reg[0] = r0;
      reg[1] = r1;
    }
  }
};

// The Programming Guide's own example (5.4.4.3): X = 1 and Y = 2 initially; writeXY() stores X = 10 then Y = 20,
// readXY() loads B = Y then A = X. Weak: A == 1 and B == 20, "not possible" with the fences.
struct GuideXY {
  static constexpr ShapeInfo info{"GuideXY",
                                  "writeXY: X=10; fence; Y=20 | readXY: B=Y; fence; A=X (X=1, Y=2)",
                                  {2, 2, 2, 2, {1, 2, 0}, {reg(0, 2, 20), reg(1, 1, 10)}, {20, 1}},
                                  {"B", "A"}};
  template <class O, cuda::thread_scope A>
  __host__ __device__ static void run(uint32_t role, int* const* loc, int* reg) {
    using Op = Ops<O, A>;
    if (role == 0) {
      Op::st(loc[X], 10);
      Op::template fence<Gap::WW>();
      Op::st(loc[Y], 20);
    } else {
      const int b = Op::ld(loc[Y]);
      Op::template fence<Gap::RR>();
      const int a = Op::ld(loc[X]);
      reg[0] = b;
      reg[1] = a;
    }
  }
};

// Store buffering. Weak: both readers miss the other's store.
struct SB {
  static constexpr ShapeInfo info{"SB",
                                  "T0: x=1; fence; r0=y | T1: y=1; fence; r1=x",
                                  {2, 2, 2, 2, {0, 0, 0}, {reg(0, 0, 1), reg(1, 0, 1)}, {0, 0}},
                                  {"r0", "r1"}};
  template <class O, cuda::thread_scope A>
  __host__ __device__ static void run(uint32_t role, int* const* loc, int* reg) {
    using Op = Ops<O, A>;
    // Selected rather than indexed by the role: an indexed array would live in local memory.
    int* const mine = role == 0 ? loc[X] : loc[Y];
    int* const theirs = role == 0 ? loc[Y] : loc[X];
    Op::st(mine, 1);
    Op::template fence<Gap::WR>();
    reg[role] = Op::ld(theirs);
  }
};

// Load buffering. Weak: both loads see the store that follows the other load.
struct LB {
  static constexpr ShapeInfo info{"LB",
                                  "T0: r0=x; fence; y=1 | T1: r1=y; fence; x=1",
                                  {2, 2, 2, 2, {0, 0, 0}, {reg(0, 0, 1), reg(1, 0, 1)}, {1, 1}},
                                  {"r0", "r1"}};
  template <class O, cuda::thread_scope A>
  __host__ __device__ static void run(uint32_t role, int* const* loc, int* reg) {
    using Op = Ops<O, A>;
    int* const read = role == 0 ? loc[X] : loc[Y];
    int* const write = role == 0 ? loc[Y] : loc[X];
    const int r = Op::ld(read);
    Op::template fence<Gap::RW>();
    Op::st(write, 1);
    reg[role] = r;
  }
};

// S. Weak: T1 sees T0's flag, yet its own store to x ends up before T0's in coherence order (x == 2 at the end).
struct S {
  static constexpr ShapeInfo info{"S",
                                  "T0: x=2; fence; y=1 | T1: r0=y; fence; x=1",
                                  {2, 2, 1, 2, {0, 0, 0}, {reg(0, 0, 1), final_value(X, 1, 2)}, {1, 2}},
                                  {"r0", "x"}};
  template <class O, cuda::thread_scope A>
  __host__ __device__ static void run(uint32_t role, int* const* loc, int* reg) {
    using Op = Ops<O, A>;
    if (role == 0) {
      Op::st(loc[X], 2);
      Op::template fence<Gap::WW>();
      Op::st(loc[Y], 1);
    } else {
      const int r0 = Op::ld(loc[Y]);
      Op::template fence<Gap::RW>();
      Op::st(loc[X], 1);
      reg[0] = r0;
    }
  }
};

// R. Weak: T1's store to y is last in coherence order (y == 2), yet T1 then misses T0's first store.
struct R {
  static constexpr ShapeInfo info{"R",
                                  "T0: x=1; fence; y=1 | T1: y=2; fence; r0=x",
                                  {2, 2, 1, 2, {0, 0, 0}, {reg(0, 0, 1), final_value(Y, 1, 2)}, {0, 2}},
                                  {"r0", "y"}};
  template <class O, cuda::thread_scope A>
  __host__ __device__ static void run(uint32_t role, int* const* loc, int* reg) {
    using Op = Ops<O, A>;
    if (role == 0) {
      Op::st(loc[X], 1);
      Op::template fence<Gap::WW>();
      Op::st(loc[Y], 1);
    } else {
      Op::st(loc[Y], 2);
      Op::template fence<Gap::WR>();
      reg[0] = Op::ld(loc[X]);
    }
  }
};

// 2+2W. Weak: each location ends with the value written first by its thread (x == 1 and y == 1).
struct TwoPlusTwoW {
  static constexpr ShapeInfo info{"2+2W",
                                  "T0: x=1; fence; y=2 | T1: y=1; fence; x=2",
                                  {2, 2, 0, 2, {0, 0, 0}, {final_value(X, 1, 2), final_value(Y, 1, 2)}, {1, 1}},
                                  {"x", "y"}};
  template <class O, cuda::thread_scope A>
  __host__ __device__ static void run(uint32_t role, int* const* loc, int*) {
    using Op = Ops<O, A>;
    int* const first = role == 0 ? loc[X] : loc[Y];
    int* const second = role == 0 ? loc[Y] : loc[X];
    Op::st(first, 1);
    Op::template fence<Gap::WW>();
    Op::st(second, 2);
  }
};

// Read-read coherence. Weak (forbidden whenever the accesses are morally strong): the second read sees an older
// value than the first.
struct CoRR {
  static constexpr ShapeInfo info{
      "CoRR", "T0: x=1 | T1: r0=x; r1=x", {2, 1, 2, 2, {0, 0, 0}, {reg(0, 0, 1), reg(1, 0, 1)}, {1, 0}}, {"r0", "r1"}};
  template <class O, cuda::thread_scope A>
  __host__ __device__ static void run(uint32_t role, int* const* loc, int* reg) {
    using Op = Ops<O, A>;
    if (role == 0) {
      Op::st(loc[X], 1);
    } else {
      const int r0 = Op::ld(loc[X]);
      Op::template fence<Gap::RR>();
      const int r1 = Op::ld(loc[X]);
      reg[0] = r0;
      reg[1] = r1;
    }
  }
};

// Read-write coherence. Weak: T0 reads T1's store, yet T0's own later store ends before it (x == 2).
// Never: T0 reads its own later store (r0 == 1).
struct CoRW {
  static constexpr ShapeInfo info{"CoRW",
                                  "T0: r0=x; x=1 | T1: x=2",
                                  {2, 1, 1, 2, {0, 0, 0}, {reg3(0, 0, 1, 2), final_value(X, 1, 2)}, {2, 2}, 0, 1},
                                  {"r0", "x"}};
  template <class O, cuda::thread_scope A>
  __host__ __device__ static void run(uint32_t role, int* const* loc, int* reg) {
    using Op = Ops<O, A>;
    if (role == 0) {
      const int r0 = Op::ld(loc[X]);
      Op::template fence<Gap::RW>();
      Op::st(loc[X], 1);
      reg[0] = r0;
    } else {
      Op::st(loc[X], 2);
    }
  }
};

// Write-read coherence. Weak: T0 reads T1's store, yet its own earlier store ends last (x == 1).
// Never: T0 reads the initial value, older than its own store (r0 == 0).
struct CoWR {
  static constexpr ShapeInfo info{"CoWR",
                                  "T0: x=1; r0=x | T1: x=2",
                                  {2, 1, 1, 2, {0, 0, 0}, {reg3(0, 0, 1, 2), final_value(X, 1, 2)}, {2, 1}, 0, 0},
                                  {"r0", "x"}};
  template <class O, cuda::thread_scope A>
  __host__ __device__ static void run(uint32_t role, int* const* loc, int* reg) {
    using Op = Ops<O, A>;
    if (role == 0) {
      Op::st(loc[X], 1);
      Op::template fence<Gap::WR>();
      reg[0] = Op::ld(loc[X]);
    } else {
      Op::st(loc[X], 2);
    }
  }
};

// Write-write coherence, one thread. Weak: the first store ends last (x == 1).
struct CoWW {
  static constexpr ShapeInfo info{"CoWW", "T0: x=1; x=2", {1, 1, 0, 1, {0, 0, 0}, {final_value(X, 1, 2)}, {1}}, {"x"}};
  template <class O, cuda::thread_scope A>
  __host__ __device__ static void run(uint32_t, int* const* loc, int*) {
    using Op = Ops<O, A>;
    Op::st(loc[X], 1);
    Op::template fence<Gap::WW>();
    Op::st(loc[X], 2);
  }
};

// Independent reads of independent writes. Weak: the two readers see the two stores in opposite orders.
struct IRIW {
  static constexpr ShapeInfo info{
      "IRIW",
      "T0: x=1 | T1: y=1 | T2: r0=x; fence; r1=y | T3: r2=y; fence; r3=x",
      {4, 2, 4, 4, {0, 0, 0}, {reg(0, 0, 1), reg(1, 0, 1), reg(2, 0, 1), reg(3, 0, 1)}, {1, 0, 1, 0}},
      {"r0", "r1", "r2", "r3"}};
  template <class O, cuda::thread_scope A>
  __host__ __device__ static void run(uint32_t role, int* const* loc, int* reg) {
    using Op = Ops<O, A>;
    if (role < 2) {
      Op::st(role == 0 ? loc[X] : loc[Y], 1);
    } else {
      int* const first = role == 2 ? loc[X] : loc[Y];
      int* const second = role == 2 ? loc[Y] : loc[X];
      const int a = Op::ld(first);
      Op::template fence<Gap::RR>();
      const int b = Op::ld(second);
      reg[(role - 2) * 2] = a;
      reg[(role - 2) * 2 + 1] = b;
    }
  }
};

// Write-to-read causality. Weak: T2 sees T1's flag, which T1 wrote after seeing x == 1, yet T2 misses x.
struct WRC {
  static constexpr ShapeInfo info{"WRC",
                                  "T0: x=1 | T1: r0=x; fence; y=1 | T2: r1=y; fence; r2=x",
                                  {3, 2, 3, 3, {0, 0, 0}, {reg(0, 0, 1), reg(1, 0, 1), reg(2, 0, 1)}, {1, 1, 0}},
                                  {"r0", "r1", "r2"}};
  template <class O, cuda::thread_scope A>
  __host__ __device__ static void run(uint32_t role, int* const* loc, int* reg) {
    using Op = Ops<O, A>;
    if (role == 0) {
      Op::st(loc[X], 1);
    } else if (role == 1) {
      const int r0 = Op::ld(loc[X]);
      Op::template fence<Gap::RW>();
      Op::st(loc[Y], 1);
      reg[0] = r0;
    } else {
      const int r1 = Op::ld(loc[Y]);
      Op::template fence<Gap::RR>();
      const int r2 = Op::ld(loc[X]);
      reg[1] = r1;
      reg[2] = r2;
    }
  }
};

// ISA2: message passing through a middle thread. Weak: T2 sees z (set after y was seen) but misses x.
struct ISA2 {
  static constexpr ShapeInfo info{"ISA2",
                                  "T0: x=1; fence; y=1 | T1: r0=y; fence; z=1 | T2: r1=z; fence; r2=x",
                                  {3, 3, 3, 3, {0, 0, 0}, {reg(0, 0, 1), reg(1, 0, 1), reg(2, 0, 1)}, {1, 1, 0}},
                                  {"r0", "r1", "r2"}};
  template <class O, cuda::thread_scope A>
  __host__ __device__ static void run(uint32_t role, int* const* loc, int* reg) {
    using Op = Ops<O, A>;
    if (role == 0) {
      Op::st(loc[X], 1);
      Op::template fence<Gap::WW>();
      Op::st(loc[Y], 1);
    } else if (role == 1) {
      const int r0 = Op::ld(loc[Y]);
      Op::template fence<Gap::RW>();
      Op::st(loc[Z], 1);
      reg[0] = r0;
    } else {
      const int r1 = Op::ld(loc[Z]);
      Op::template fence<Gap::RR>();
      const int r2 = Op::ld(loc[X]);
      reg[1] = r1;
      reg[2] = r2;
    }
  }
};

}  // namespace litmus
