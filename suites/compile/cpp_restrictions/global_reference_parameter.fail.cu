// rule: CppRestrictions.GlobalNoReferenceParameter
// section: PG12.9 18.5.10.3
// statement: __global__ function parameters cannot be pass-by-reference
// error: error: .*(reference|pass-by-reference)
__global__ void kernel(int& value) { value = 1; }
