// rule: CppRestrictions.GlobalNoRvalueReferenceParameter
// section: PG12.9 18.5.22.8
// statement: a __global__ function cannot have a parameter of rvalue reference type
// error: error: a __global__ function cannot have a parameter with rvalue reference type
// error.clang: error: .*rvalue reference
__global__ void kernel(int&& value) {}
