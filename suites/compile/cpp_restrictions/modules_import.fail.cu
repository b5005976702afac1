// rule: CppRestrictions.ImportKeywordIsAnError
// section: PG12.9 18.5.25.1
// statement: modules are not supported in CUDA C++, in host or device code: the import keyword is diagnosed as an
//   error
// std: c++20
// error: error: modules are not enabled in this mode
// error.clang: error: .*module
import cuda_module;

__device__ int twice(int x) { return 2 * x; }
