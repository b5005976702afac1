// rule: VideoInstructions.ListedInstructionsAssembleThroughAsm
// section: PG12.9 10.41
// statement: the SIMD video instructions vadd2, vadd4, vsub2, vsub4, vabsdiff2, vabsdiff4, vmin2, vmin4, vmax2, vmax4,
//   vset2 and vset4 can be included in CUDA programs through the asm() statement (their results are rules of
//   suites/intrinsics, video_simd.cu)
// ptx-match: vadd2\.u32\.u32\.u32
// ptx-match: vadd4\.s32\.s32\.s32\.sat
// ptx-match: vsub2\.s32\.s32\.s32\.add
// ptx-match: vsub4\.u32\.u32\.u32
// ptx-match: vabsdiff2\.u32\.u32\.u32\.add
// ptx-match: vabsdiff4\.s32\.s32\.s32
// ptx-match: vmin2\.s32\.s32\.s32
// ptx-match: vmin4\.u32\.u32\.u32\.sat
// ptx-match: vmax2\.u32\.u32\.u32
// ptx-match: vmax4\.s32\.s32\.s32\.add
// ptx-match: vset2\.u32\.u32\.lt
// ptx-match: vset4\.s32\.s32\.ge\.add
#define VIDEO(opcode, d, a, b, c) asm(opcode " %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c))

__global__ void kernel(unsigned* out, unsigned a, unsigned b, unsigned c) {
  unsigned d[12];
  VIDEO("vadd2.u32.u32.u32", d[0], a, b, c);
  VIDEO("vadd4.s32.s32.s32.sat", d[1], a, b, c);
  VIDEO("vsub2.s32.s32.s32.add", d[2], a, b, c);
  VIDEO("vsub4.u32.u32.u32", d[3], a, b, c);
  VIDEO("vabsdiff2.u32.u32.u32.add", d[4], a, b, c);
  VIDEO("vabsdiff4.s32.s32.s32", d[5], a, b, c);
  VIDEO("vmin2.s32.s32.s32", d[6], a, b, c);
  VIDEO("vmin4.u32.u32.u32.sat", d[7], a, b, c);
  VIDEO("vmax2.u32.u32.u32", d[8], a, b, c);
  VIDEO("vmax4.s32.s32.s32.add", d[9], a, b, c);
  VIDEO("vset2.u32.u32.lt", d[10], a, b, c);
  VIDEO("vset4.s32.s32.ge.add", d[11], a, b, c);
  for (int i = 0; i < 12; ++i) out[i] = d[i];
}
