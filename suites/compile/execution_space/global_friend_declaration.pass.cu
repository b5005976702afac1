// rule: ExecutionSpace.GlobalFriendDeclarationAllowed
// section: PG12.9 18.5.10.7
// statement: a __global__ function or function template may be declared (not defined) in a friend declaration
struct Holder {
  friend __global__ void kernel(int*);
  template <typename T>
  friend __global__ void kernel_template(T*);
};

__global__ void kernel(int* out) { *out = 1; }
template <typename T>
__global__ void kernel_template(T* out) { *out = T(1); }
template __global__ void kernel_template<float>(float*);
