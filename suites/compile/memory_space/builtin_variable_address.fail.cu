// rule: BuiltinVariables.AddressNotTaken
// section: PG12.9 18.5.5.2
// statement: it is not allowed to take the address of any of the built-in variables
// error: error: cannot take address of builtin variable "blockIdx"
// error.clang: error: overload resolution selected deleted operator '&'
__global__ void kernel(const uint3** out) { *out = &blockIdx; }
