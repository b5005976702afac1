// rule: CppRestrictions.SharedNotConstexpr
// section: PG12.9 18.5.22.9
// statement: __shared__ variables cannot be marked constexpr
// error: error: A __shared__ variable cannot be marked constexpr
// error.clang: error: (.*constexpr|initialization is not supported for __shared__ variables)
// note: a constexpr variable needs an initializer, which a __shared__ variable cannot have: clang's diagnostic says so
__global__ void kernel(int* out) {
  __shared__ constexpr int value = 1;
  *out = value;
}
