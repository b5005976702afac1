// rule: CppRestrictions.NoReplacingDeviceArrayNew
// section: PG12.9 18.5.10.9
// statement: a user-defined operator new[] cannot replace the __device__ built-in provided by the compiler
// error: error: .*operator new
using size_t = decltype(sizeof(0));

__device__ void* operator new[](size_t bytes) { return nullptr; }
