// rule: CppRestrictions.ExternCallNeedsDefinitionInUnit
// section: PG12.9 18.5.10.1
// statement: device code may call an extern function only if it is defined in the same compilation unit (or linked
//   with relocatable device code): an undefined one is rejected in whole program compilation
// error: Unresolved extern function '_Z17defined_elsewherei'

extern __device__ int defined_elsewhere(int);

__global__ void kernel(int* out) { *out = defined_elsewhere(*out); }
