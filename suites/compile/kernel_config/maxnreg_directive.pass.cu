// rule: MaxNReg.CompilesToMaxnreg
// section: 5.4.3.3
// statement: __maxnreg__(N) compiles to the .maxnreg PTX directive
// ptx-match: \.maxnreg\s+40\b
__global__ void __maxnreg__(40) kernel(int* out) { out[threadIdx.x] = 1; }
