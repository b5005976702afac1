// rule: ManagedMemory.NotUsedInDynamicInitialization
// section: 5.4.1.2.2
// statement: the value of a __managed__ variable shall not be used in the dynamic initialization of an object with
//   static storage duration
// error: error: .*managed
// skip.nvrtc: host code (NVRTC compiles device code only)
__device__ __managed__ int global_var = 10;

struct ReadsManaged {
  int field;
  ReadsManaged() : field(global_var) {}
};

ReadsManaged object;
