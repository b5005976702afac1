// rule: ExecutionSpace.GlobalAndHostExclusive
// section: 5.4.1.1
// statement: __global__ and __host__ cannot be applied to the same function (Table 38 gives each its own row)
// error: error: illegal combination of memory qualifiers
// error.clang: error: 'host' and 'global' attributes are not compatible
__global__ __host__ void kernel() {}
