// rule: CppRestrictions.ComplexOnlyInHostCode
// section: PG12.9 18.5.1
// statement: _Complex types are only supported in host code
// error: error: .*(_Complex|complex)
__device__ float real_part(_Complex float z) { return __real__ z; }
