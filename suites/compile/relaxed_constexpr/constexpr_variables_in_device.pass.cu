// rule: ConstexprVariables.ScalarValuesUsableInDevice
// section: PG12.9 18.5.22.5
// statement: the value of a constexpr host variable of scalar type (namespace scope or static member) can be used
//   directly in device code, and scalar elements of a non-scalar one inside a constexpr __device__ function called
//   in a constant expression
constexpr int xxx = 10;
constexpr int yyy = xxx + 4;
struct S1_t {
  static constexpr int qq = 100;
};

constexpr int host_arr[] = {1, 2, 3};
constexpr __device__ int get(int idx) { return host_arr[idx]; }

__device__ int foo(int idx) {
  int v1 = xxx + yyy + S1_t::qq;
  v1 += get(2);
  return v1;
}

// The values device code sees, where the language can check them: in constant expressions of device code.
__device__ void values_in_device_code() {
  static_assert(xxx == 10 && yyy == 14 && S1_t::qq == 100, "the host constexpr scalars' values");
  static_assert(get(0) == 1 && get(2) == 3, "elements of the host constexpr array, through a constexpr __device__ "
                "function in a constant expression");
}
