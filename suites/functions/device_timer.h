// Device-side helpers shared by the rules of this area. Include from .cu files only.
#pragma once

namespace cuconform_functions {

// The PTX global timer, in nanoseconds.
__device__ inline unsigned long long global_timer_ns() {
  unsigned long long now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  return now;
}

// Returns `p` through an inline-assembly move the compiler cannot see through: a predicate or conversion applied to
// the result is evaluated at run time instead of being folded from what the compiler knows about `p`.
template <class T>
__device__ inline T* opaque(T* p) {
  unsigned long long bits = reinterpret_cast<unsigned long long>(p);
  asm volatile("mov.b64 %0, %0;" : "+l"(bits));
  return reinterpret_cast<T*>(bits);
}

}  // namespace cuconform_functions
