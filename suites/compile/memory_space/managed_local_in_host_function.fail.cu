// rule: ManagedMemory.NotLocalInHostFunction
// section: PG12.9 18.5.3.2
// statement: a __managed__ variable declaration without extern linkage is not allowed within a host function
// error: error: an automatic "__managed__" variable declaration is not allowed inside a host function body
// error.clang: error: .*managed
// skip.nvrtc: host code (NVRTC compiles device code only)
int host_function() {
  __managed__ int local = 1;
  return local;
}
