// rule: AtomicBuiltins.NotTemplateDefaultArgument
// section: 5.4.5.2
// statement: a built-in atomic function cannot be a template default argument (its address cannot be taken)
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
// std: c++17
// error: error: (nv atomic function must be called directly|.*__nv_atomic_load_n.* was not declared)
// note: the guide's own example, template<void* F = __nv_atomic_load_n>, is ill-formed for any function (a
//   function pointer does not convert to void* in a template argument), so it cannot tell: this case uses auto
// note: nvcc 13.0's front end accepts this; its rejection comes from the host compiler, which has no such function
template <auto F = &__nv_atomic_load_n>
struct X {};

__global__ void kernel() {
  X<> x;
  (void)x;
}
