// rule: VideoInstructions.GuideExampleCompiles
// section: PG12.9 10.41
// statement: the guide's example asm("vabsdiff4.u32.u32.u32.add" " %0, %1, %2, %3;" : "=r" (result):"r" (A), "r" (B),
//   "r" (C)) compiles and puts the vabsdiff4 instruction with its .add accumulate into the device code
// ptx-match: vabsdiff4\.u32\.u32\.u32\.add
__global__ void kernel(unsigned* out, unsigned A, unsigned B, unsigned C) {
  unsigned result;
  asm("vabsdiff4.u32.u32.u32.add" " %0, %1, %2, %3;" : "=r" (result):"r" (A), "r" (B), "r" (C));
  *out = result;
}
