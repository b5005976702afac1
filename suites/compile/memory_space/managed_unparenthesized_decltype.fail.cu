// rule: ManagedMemory.NotUnparenthesizedDecltypeArgument
// section: 5.4.1.2.2
// statement: a __managed__ variable cannot be used as an unparenthesized id-expression argument to decltype()
// error: error: A __managed__ variable cannot be used as an unparenthesized id-expression argument for decltype\(\)
// error.clang: error: .*managed
// skip.nvrtc: host code (NVRTC compiles device code only)
__device__ __managed__ int global_var = 10;

int main() {
  decltype(global_var) copy = 0;
  return copy;
}
