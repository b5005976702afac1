// rule: CppRestrictions.DeprecationDiagnosedInDeviceCode
// section: PG12.9 18.5.16
// statement: a reference to a deprecated entity from the body of a __device__ function is diagnosed (a deprecation
//   warning) during device compilation
// warning: warning.*(deprecated|old_api)
__attribute__((deprecated)) __device__ int old_api() { return 1; }

__device__ int caller() { return old_api(); }
