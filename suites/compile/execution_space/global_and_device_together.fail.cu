// rule: ExecutionSpace.GlobalAndDeviceExclusive
// section: 5.4.1.1
// statement: __global__ and __device__ cannot be applied to the same function (Table 38 gives each its own row)
// error: error: illegal combination of memory qualifiers
// error.clang: error: 'device' and 'global' attributes are not compatible
__global__ __device__ void kernel() {}
