// rule: NvAbi.OnDeclarationAndDefinition
// section: 5.4.9.6
// statement: #pragma nv_abi with preserve_n_data and/or preserve_n_control may precede a device function
//   declaration or definition
// skip.clang: #pragma nv_abi is an nvcc pragma
#pragma nv_abi preserve_n_data(16)
__device__ void dev_func();

#pragma nv_abi preserve_n_data(16) preserve_n_control(8)
__device__ int dev_func2() { return 0; }
