// rule: CppRestrictions.NoMemorySpaceOnStructuredBinding
// section: PG12.9 18.5.24.2
// statement: a structured binding cannot be declared with a variable memory space specifier
// error: error: The __device__ specifier is not allowed for a structured binding declaration
// error.clang: error: .*structured binding
struct S {
  int x;
  int y;
};

__device__ auto [a1, b1] = S{4, 5};
