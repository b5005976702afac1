// rule: CppRestrictions.ConstHostVariablesUsableInDevice
// section: PG12.9 18.5.14
// statement: the value of a const-qualified namespace-scope or static member variable of built-in integral or
//   floating-point type, initialized with a constant expression, may be used directly in device code
const int xxx = 10;
struct S1_t {
  static const int yyy = 20;
};
const float www = 5.0;

__device__ float foo(void) {
  int local1[xxx];
  int local2[S1_t::yyy];
  local1[0] = xxx;
  local2[0] = S1_t::yyy;
  const float val5 = www;
  return local1[0] + local2[0] + val5;
}

// The values device code sees, where the language can check them: the integral ones are constant expressions there.
__device__ void values_in_device_code() {
  static_assert(xxx == 10 && S1_t::yyy == 20, "the host const integral variables' values");
  int local1[xxx];
  static_assert(sizeof(local1) == 10 * sizeof(int), "an array bound of xxx elements");
  (void)local1;
}
