// rule: ManagedMemory.NotUsedInStaticDestruction
// section: 5.4.1.2.2
// statement: a __managed__ variable shall not be used in the destructor of an object with static storage duration
// error: error: .*managed
// skip.nvrtc: host code (NVRTC compiles device code only)
__device__ __managed__ int global_var = 10;

struct WritesManaged {
  ~WritesManaged() { global_var = 10; }
};

WritesManaged object;
