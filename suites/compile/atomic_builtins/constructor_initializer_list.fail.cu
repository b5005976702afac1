// rule: AtomicBuiltins.NotInConstructorInitializerList
// section: 5.4.5.2
// statement: a built-in atomic function cannot be called in a constructor initialization list
// skip.clang: the __nv_atomic_* built-ins are NVIDIA's (clang has none)
// error: error: .*(__nv_atomic_load|constructor|initiali[sz]ation list)
// note: nvcc 13.0's front end accepts this; its rejection comes from the host compiler, which sees the device
//   constructor's initializer and has no such function
class Y {
  int a;

 public:
  __device__ Y(int* b) : a(__nv_atomic_load_n(b, __NV_ATOMIC_RELAXED)) {}
};

__global__ void kernel(int* b) { Y y(b); }
