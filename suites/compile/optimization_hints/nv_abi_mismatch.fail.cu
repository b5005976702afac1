// rule: NvAbi.DeclarationMatchesDefinition
// section: 5.4.9.6
// statement: a program is ill-formed if the nv_abi arguments of a function declaration and its definition differ
// skip.clang: #pragma nv_abi is an nvcc pragma
// error: error: .*nv_abi
#pragma nv_abi preserve_n_data(16)
__device__ int dev_func();

#pragma nv_abi preserve_n_data(8)
__device__ int dev_func() { return 0; }
