// rule: CppRestrictions.NoModules
// section: PG12.9 18.5.25.1
// statement: modules are not supported: the module keyword is diagnosed as an error
// std: c++20
// error: error: modules are not enabled in this mode
// error.clang: error: module declaration
export module cuda_module;

export __device__ int twice(int x) { return 2 * x; }
