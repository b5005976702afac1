// rule: ExecutionSpace.GlobalMustReturnVoid
// section: 5.4.1.1
// statement: a __global__ function must return void
// error: error.*(__global__|return type)
// error.clang: error: kernel function type .* must have void return type
__global__ int kernel() { return 0; }
