// Registers the rows of the generated case table whose shape this file hosts. A shape file defines
// LITMUS_HOSTS_<Shape> for each shape it builds, includes its kernels, then includes this header once.
#pragma once

#include "kernels.cuh"

#define LITMUS_SHAPE_CASE_(shape, ...) LITMUS_REGISTER_CASE(shape, __VA_ARGS__);

#if defined(LITMUS_HOSTS_MP)
#define LITMUS_CASE_MP(...) LITMUS_SHAPE_CASE_(MP, __VA_ARGS__)
#else
#define LITMUS_CASE_MP(...)
#endif
#if defined(LITMUS_HOSTS_GuideXY)
#define LITMUS_CASE_GuideXY(...) LITMUS_SHAPE_CASE_(GuideXY, __VA_ARGS__)
#else
#define LITMUS_CASE_GuideXY(...)
#endif
#if defined(LITMUS_HOSTS_SB)
#define LITMUS_CASE_SB(...) LITMUS_SHAPE_CASE_(SB, __VA_ARGS__)
#else
#define LITMUS_CASE_SB(...)
#endif
#if defined(LITMUS_HOSTS_LB)
#define LITMUS_CASE_LB(...) LITMUS_SHAPE_CASE_(LB, __VA_ARGS__)
#else
#define LITMUS_CASE_LB(...)
#endif
#if defined(LITMUS_HOSTS_S)
#define LITMUS_CASE_S(...) LITMUS_SHAPE_CASE_(S, __VA_ARGS__)
#else
#define LITMUS_CASE_S(...)
#endif
#if defined(LITMUS_HOSTS_R)
#define LITMUS_CASE_R(...) LITMUS_SHAPE_CASE_(R, __VA_ARGS__)
#else
#define LITMUS_CASE_R(...)
#endif
#if defined(LITMUS_HOSTS_TwoPlusTwoW)
#define LITMUS_CASE_TwoPlusTwoW(...) LITMUS_SHAPE_CASE_(TwoPlusTwoW, __VA_ARGS__)
#else
#define LITMUS_CASE_TwoPlusTwoW(...)
#endif
#if defined(LITMUS_HOSTS_CoRR)
#define LITMUS_CASE_CoRR(...) LITMUS_SHAPE_CASE_(CoRR, __VA_ARGS__)
#else
#define LITMUS_CASE_CoRR(...)
#endif
#if defined(LITMUS_HOSTS_CoRW)
#define LITMUS_CASE_CoRW(...) LITMUS_SHAPE_CASE_(CoRW, __VA_ARGS__)
#else
#define LITMUS_CASE_CoRW(...)
#endif
#if defined(LITMUS_HOSTS_CoWR)
#define LITMUS_CASE_CoWR(...) LITMUS_SHAPE_CASE_(CoWR, __VA_ARGS__)
#else
#define LITMUS_CASE_CoWR(...)
#endif
#if defined(LITMUS_HOSTS_CoWW)
#define LITMUS_CASE_CoWW(...) LITMUS_SHAPE_CASE_(CoWW, __VA_ARGS__)
#else
#define LITMUS_CASE_CoWW(...)
#endif
#if defined(LITMUS_HOSTS_IRIW)
#define LITMUS_CASE_IRIW(...) LITMUS_SHAPE_CASE_(IRIW, __VA_ARGS__)
#else
#define LITMUS_CASE_IRIW(...)
#endif
#if defined(LITMUS_HOSTS_WRC)
#define LITMUS_CASE_WRC(...) LITMUS_SHAPE_CASE_(WRC, __VA_ARGS__)
#else
#define LITMUS_CASE_WRC(...)
#endif
#if defined(LITMUS_HOSTS_ISA2)
#define LITMUS_CASE_ISA2(...) LITMUS_SHAPE_CASE_(ISA2, __VA_ARGS__)
#else
#define LITMUS_CASE_ISA2(...)
#endif

namespace litmus_cases {
#include "litmus/litmus_cases.inc"
}  // namespace litmus_cases
