// rule: Attributes.ConstAndPureOnDeviceFunctions
// section: PG12.9 18.5.19
// statement: the GNU const and pure attributes are supported on device functions
__attribute__((const)) __device__ int get(int in) { return in * 3; }
__attribute__((pure)) __device__ int peek(const int* in) { return *in; }

__device__ int doit(int in, const int* p) {
  int sum = get(in);
  sum += get(in);
  return sum + peek(p);
}
