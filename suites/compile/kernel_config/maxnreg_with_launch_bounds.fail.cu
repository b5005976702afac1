// rule: MaxNReg.ExclusiveWithLaunchBounds
// section: 5.4.3.3
// statement: __launch_bounds__() and __maxnreg__() cannot be applied to the same kernel together
// error: error: The __launch_bounds__ and __maxnreg__ qualifiers cannot be applied to the same kernel
// error.clang: error: .*maxnreg
__global__ void __launch_bounds__(256) __maxnreg__(40) kernel(int* out) { out[threadIdx.x] = 1; }
