// rule: VideoInstructions.AverageAssemblesUnderTheGuidesName
// section: PG12.9 10.41
// statement: vavg2 and vavg4, as the guide's list of SIMD video instructions names them, can be included through
//   the asm() statement
// note: the PTX ISA names the averaging instructions vavrg2 and vavrg4 (which suites/intrinsics checks); ptxas knows
//   no vavg2 or vavg4, so this case fails where the guide's names are not instructions (a documentation defect)
__global__ void kernel(unsigned* out, unsigned a, unsigned b, unsigned c) {
  unsigned d2, d4;
  asm("vavg2.u32.u32.u32 %0, %1, %2, %3;" : "=r"(d2) : "r"(a), "r"(b), "r"(c));
  asm("vavg4.u32.u32.u32 %0, %1, %2, %3;" : "=r"(d4) : "r"(a), "r"(b), "r"(c));
  out[0] = d2;
  out[1] = d4;
}
