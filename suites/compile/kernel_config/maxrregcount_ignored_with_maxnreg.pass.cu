// rule: MaxNReg.OverridesMaxrregcount
// section: 5.4.3.3
// statement: --maxrregcount is ignored for kernels with the __maxnreg__ qualifier: their .maxnreg stays
// flags.nvcc: --maxrregcount=64
// flags.nvrtc: --maxrregcount=64
// skip.clang: --maxrregcount is an nvcc option
// ptx-match: \.maxnreg\s+40\b
__global__ void __maxnreg__(40) kernel(int* out) { out[threadIdx.x] = 1; }
