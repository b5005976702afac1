// rule: CppRestrictions.NoThreadLocalInDeviceCode
// section: PG12.9 18.5.22.7
// statement: the thread_local storage specifier is not allowed in device code
// error: error: cannot use thread_local specifier for variable declarations in device code
// error.clang: error: .*thread_local
__device__ int counter() {
  thread_local int calls = 0;
  return ++calls;
}
