// rule: CppRestrictions.GlobalNotConstexpr
// section: PG12.9 18.5.22.8
// statement: a __global__ function or function template cannot be declared constexpr
// error: error: A __global__ function or function template cannot be marked constexpr
// error.clang: error: .*constexpr
constexpr __global__ void kernel() {}
