// rule: ManagedMemory.ParenthesizedDecltypeAllowed
// section: 5.4.1.2.2
// statement: decltype((v)) of a __managed__ variable v is allowed
// skip.nvrtc: host code (NVRTC compiles device code only)
__device__ __managed__ int global_var = 10;

int main() {
  decltype((global_var)) alias = global_var;
  return alias;
}
