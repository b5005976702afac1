// rule: MemorySpace.DeviceNotOnDataMember
// section: PG12.9 18.5.3.1
// statement: the __device__ memory space specifier is not allowed on class, struct and union data members
// error: error: attribute "__device__" does not apply here
// error.clang: error: .*device
struct Holder {
  __device__ int value;
};
