// rule: MemorySpace.DeviceVariableEmptyBasesAndMembersAllowed
// section: PG12.9 18.5.3.1
// statement: a constructor whose class's bases and class-type members (or arrays of them) have empty default
//   constructors is empty, and so is a destructor whose bases' and members' destructors are empty: such classes may
//   be the types of __device__ and __constant__ variables
struct Inner {
  int value;
  __host__ __device__ Inner() {}
};

struct Base {
  int base_value;
  __host__ __device__ Base() {}
  __host__ __device__ ~Base() {}
};

struct WithBase : Base {
  __host__ __device__ WithBase() {}
  __host__ __device__ ~WithBase() {}
};

struct WithMembers {
  Inner inner;
  Inner inners[4];
  int plain;
  __host__ __device__ WithMembers() {}
};

__device__ WithBase with_base;
__constant__ WithMembers with_members;

__global__ void kernel(int* out) { *out = with_base.base_value + with_members.inners[3].value + with_members.plain; }
