// rule: CppRestrictions.NoReplacingDeviceOperatorDelete
// section: PG12.9 18.5.10.9
// statement: a user-defined operator delete cannot replace the __device__ built-in provided by the compiler
// error: error: .*operator delete
__device__ void operator delete(void* pointer) noexcept {}
