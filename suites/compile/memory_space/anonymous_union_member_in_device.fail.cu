// rule: Classes.NamespaceAnonymousUnionNotInDevice
// section: PG12.9 18.5.11.5
// statement: member variables of a namespace scope anonymous union cannot be referenced in a __global__ or
//   __device__ function
// error: error: member variables of an anonymous union at global or namespace scope cannot be directly accessed in
//   __device__ and __global__ functions
// error.clang: error: reference to __host__ variable '' in __device__ function
static union {
  int as_int;
  float as_float;
};

__device__ int read() { return as_int; }
