// rule: VideoInstructions.NoSaturationWithTheAccumulate
// section: PG12.9 10.41
// statement: .sat cannot be combined with the secondary accumulate operation .add (the PTX ISA the guide refers to:
//   "Saturation cannot be used with the secondary accumulate operation")
// error: Illegal combination of \.sat and \.add
__global__ void kernel(unsigned* out, unsigned a, unsigned b, unsigned c) {
  unsigned d;
  asm("vadd2.u32.u32.u32.sat.add %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  *out = d;
}
