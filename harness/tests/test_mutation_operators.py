"""The mutation operators (cuconform/mutation/operators.py): each family's rewrites on small PTX snippets, and every
operator's mutant of a kernel holding all their sites (mutation/sites.ptx) accepted by ptxas."""

from __future__ import annotations

import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from cuconform.mutation.operators import BY_NAME, OPERATORS, apply, mutate

SITES = Path(__file__).parent / "mutation" / "sites.ptx"
PTXAS = shutil.which("ptxas") or ("/usr/local/cuda/bin/ptxas" if Path("/usr/local/cuda/bin/ptxas").exists() else None)


def rewritten(name: str, instruction: str) -> str:
    """One instruction (tab-indented, as nvcc writes it) through one operator; unchanged when it does not apply."""
    mutated, _ = apply(BY_NAME[name], "\t" + instruction)
    return mutated[1:]


def check(name: str, before: str, after: str | None):
    assert rewritten(name, before) == (before if after is None else after)


def test_operators_are_many_unique_and_kebab_case():
    names = [operator.name for operator in OPERATORS]
    assert len(names) >= 40
    assert len(set(names)) == len(names)
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name) for name in names)
    assert all(operator.description and operator.family and operator.rule for operator in OPERATORS)


@pytest.mark.parametrize(
    "name, before, after",
    [
        ("atom-add-to-exch", "atom.global.add.u32 \t%r3, [%rd2], %r1;", "atom.global.exch.b32 \t%r3, [%rd2], %r1;"),
        ("atom-add-to-exch", "atom.global.add.f64 \t%fd3, [%rd2], %fd1;", "atom.global.exch.b64 \t%fd3, [%rd2], %fd1;"),
        ("atom-add-to-exch", "atom.global.add.noftz.f16 \t%rs3, [%rd2], %rs1;", None),
        ("atom-exch-to-add", "atom.shared.exch.b64 \t%rd3, [%r2], %rd1;", "atom.shared.add.u64 \t%rd3, [%r2], %rd1;"),
        ("atom-min-to-max", "red.global.min.s32 \t[%rd2], %r1;", "red.global.max.s32 \t[%rd2], %r1;"),
        (
            "atom-or-to-xor",
            "atom.acquire.sys.global.or.b32 \t%r3, [%rd2], %r1;",
            "atom.acquire.sys.global.xor.b32 \t%r3, [%rd2], %r1;",
        ),
        ("atom-inc-to-dec", "atom.global.inc.u32 \t%r3, [%rd2], %r1;", "atom.global.dec.u32 \t%r3, [%rd2], %r1;"),
        (
            "atom-cas-operands-swapped",
            "atom.acq_rel.gpu.global.cas.b64 \t%rd3, [%rd2], %rd1, 5;",
            "atom.acq_rel.gpu.global.cas.b64 \t%rd3, [%rd2], 5, %rd1;",
        ),
        (
            "atom-scope-gpu-to-cta",
            "atom.global.add.u32 \t%r3, [%rd2], %r1;",
            "atom.cta.global.add.u32 \t%r3, [%rd2], %r1;",
        ),
        (
            "atom-scope-gpu-to-cta",
            "red.release.gpu.global.add.u64 \t[%rd2], %rd1;",
            "red.release.cta.global.add.u64 \t[%rd2], %rd1;",
        ),
        ("atom-scope-gpu-to-cta", "atom.sys.global.add.u32 \t%r3, [%rd2], %r1;", None),
        ("atom-scope-gpu-to-cta", "redux.sync.add.u32 \t%r6, %r1, -1;", None),
        (
            "atom-scope-sys-to-gpu",
            "atom.sys.global.add.u32 \t%r3, [%rd2], %r1;",
            "atom.gpu.global.add.u32 \t%r3, [%rd2], %r1;",
        ),
        (
            "atom-order-to-relaxed",
            "atom.acq_rel.gpu.global.cas.b64 \t%rd3, [%rd2], %rd1, 5;",
            "atom.relaxed.gpu.global.cas.b64 \t%rd3, [%rd2], %rd1, 5;",
        ),
        ("red-add-to-max", "red.global.add.f32 \t[%rd2], %f1;", None),
    ],
)
def test_atomics_and_reductions(name, before, after):
    check(name, before, after)


@pytest.mark.parametrize(
    "name, before, after",
    [
        (
            "shfl-up-to-down",
            "shfl.sync.up.b32 \t%r4|%p1, %r1, 1, 0, -1;",
            "shfl.sync.down.b32 \t%r4|%p1, %r1, 1, 0, -1;",
        ),
        ("shfl-bfly-to-idx", "shfl.sync.bfly.b32 \t%r4, %r1, 16, 31, -1;", "shfl.sync.idx.b32 \t%r4, %r1, 16, 31, -1;"),
        ("vote-all-to-any", "vote.sync.all.pred \t%p2, %p1, -1;", "vote.sync.any.pred \t%p2, %p1, -1;"),
        ("vote-ballot-negated", "vote.sync.ballot.b32 \t%r5, %p1, -1;", "vote.sync.ballot.b32 \t%r5, !%p1, -1;"),
        ("vote-ballot-negated", "vote.sync.ballot.b32 \t%r5, !%p1, -1;", "vote.sync.ballot.b32 \t%r5, %p1, -1;"),
        ("match-all-to-any", "match.all.sync.b32 \t%r5|%p3, %r1, -1;", "match.any.sync.b32 \t%r5, %r1, -1;"),
        ("redux-min-to-max", "redux.sync.min.s32 \t%r6, %r1, -1;", "redux.sync.max.s32 \t%r6, %r1, -1;"),
        ("bar-warp-sync-dropped", "bar.warp.sync \t-1;", "// mutant dropped: bar.warp.sync \t-1;"),
    ],
)
def test_warp_collectives(name, before, after):
    check(name, before, after)


@pytest.mark.parametrize(
    "name, before, after",
    [
        ("bar-sync-dropped", "barrier.sync.aligned \t0;", "// mutant dropped: barrier.sync.aligned \t0;"),
        ("bar-sync-dropped", "@%p7 bar.sync \t0;", "// mutant dropped: @%p7 bar.sync \t0;"),
        ("bar-sync-dropped", "bar.warp.sync \t-1;", None),
        (
            "bar-red-popc-to-and",
            "barrier.red.popc.u32 \t%r7, 0, %p1;",
            "{ .reg .pred %mutant_p; barrier.red.and.pred %mutant_p, 0, %p1; selp.u32 %r7, 1, 0, %mutant_p; }",
        ),
        ("bar-red-popc-to-and", "@%p2 bar.red.popc.u32 \t%r7, 0, %p1;", None),  # a block cannot take a guard
        ("bar-red-popc-negated", "bar.red.popc.u32 \t%r7, 0, %p1;", "bar.red.popc.u32 \t%r7, 0, !%p1;"),
        ("bar-red-and-to-or", "bar.red.and.pred \t%p4, 0, %p1;", "bar.red.or.pred \t%p4, 0, %p1;"),
    ],
)
def test_block_collectives(name, before, after):
    check(name, before, after)


@pytest.mark.parametrize(
    "name, before, after",
    [
        ("fence-sc-to-acq-rel", "fence.sc.gpu;", "fence.acq_rel.gpu;"),
        ("fence-gpu-to-cta", "fence.acq_rel.gpu;", "fence.acq_rel.cta;"),
        ("fence-gpu-to-cta", "membar.gl;", "membar.cta;"),
        ("fence-sys-to-gpu", "membar.sys;", "membar.gl;"),
        ("fence-dropped", "fence.sc.cta;", "// mutant dropped: fence.sc.cta;"),
        ("fence-dropped", "fence.proxy.async.shared::cta;", None),
        ("fence-proxy-dropped", "fence.proxy.async.shared::cta;", "// mutant dropped: fence.proxy.async.shared::cta;"),
    ],
)
def test_fences_and_scopes(name, before, after):
    check(name, before, after)


@pytest.mark.parametrize(
    "name, before, after",
    [
        ("ld-volatile-to-weak", "ld.volatile.shared.u32 \t%r8, [%r2];", "ld.shared.u32 \t%r8, [%r2];"),
        (
            "ld-acquire-to-relaxed",
            "ld.acquire.gpu.global.u32 \t%r8, [%rd2];",
            "ld.relaxed.gpu.global.u32 \t%r8, [%rd2];",
        ),
        (
            "st-release-to-relaxed",
            "st.release.sys.global.u32 \t[%rd2], %r8;",
            "st.relaxed.sys.global.u32 \t[%rd2], %r8;",
        ),
        ("ld-relaxed-to-weak", "ld.relaxed.gpu.global.u32 \t%r8, [%rd2];", "ld.global.u32 \t%r8, [%rd2];"),
        (
            "ld-nc-to-plain",
            "ld.global.nc.v4.u32 \t{%r1, %r2, %r3, %r4}, [%rd2];",
            "ld.global.v4.u32 \t{%r1, %r2, %r3, %r4}, [%rd2];",
        ),
        ("ld-cache-hint-to-cg", "ld.global.cs.u32 \t%r8, [%rd2];", "ld.global.cg.u32 \t%r8, [%rd2];"),
        ("st-cache-hint-to-wb", "st.global.wt.u32 \t[%rd2], %r8;", "st.global.wb.u32 \t[%rd2], %r8;"),
    ],
)
def test_loads_and_stores(name, before, after):
    check(name, before, after)


@pytest.mark.parametrize(
    "name, before, after",
    [
        ("fadd-rn-to-rz", "add.f32 \t%f3, %f1, %f2;", "add.rz.f32 \t%f3, %f1, %f2;"),
        ("fadd-rn-to-rz", "add.rn.ftz.f32 \t%f3, %f1, %f2;", "add.rz.ftz.f32 \t%f3, %f1, %f2;"),
        ("fadd-rn-to-rz", "add.rn.f16 \t%rs3, %rs1, %rs2;", None),  # f16 add rounds to nearest only
        ("fadd-rn-to-rz", "add.s32 \t%r3, %r1, %r2;", None),
        ("fma-rn-to-rz", "fma.rn.f64 \t%fd2, %fd1, %fd1, %fd2;", "fma.rz.f64 \t%fd2, %fd1, %fd1, %fd2;"),
        ("fadd-to-fsub", "add.rn.bf16x2 \t%r10, %r9, %r9;", "sub.rn.bf16x2 \t%r10, %r9, %r9;"),
        ("div-rn-to-approx", "div.rn.f32 \t%f3, %f1, %f2;", "div.approx.f32 \t%f3, %f1, %f2;"),
        ("div-rn-to-approx", "div.rn.f64 \t%fd2, %fd1, %fd1;", None),
        ("sqrt-rn-to-approx", "sqrt.rn.ftz.f32 \t%f3, %f1;", "sqrt.approx.ftz.f32 \t%f3, %f1;"),
        ("ftz-added", "max.NaN.f32 \t%f3, %f1, %f2;", "max.ftz.NaN.f32 \t%f3, %f1, %f2;"),
        ("ftz-added", "add.rn.sat.f32 \t%f3, %f1, %f2;", "add.rn.ftz.sat.f32 \t%f3, %f1, %f2;"),
        ("ftz-added", "add.ftz.f32 \t%f3, %f1, %f2;", None),
        ("ftz-added", "add.f64 \t%fd3, %fd1, %fd2;", None),
        ("fmin-to-fmax", "min.f16 \t%rs3, %rs1, %rs1;", "max.f16 \t%rs3, %rs1, %rs1;"),
        ("fmin-to-fmax", "min.s32 \t%r3, %r1, %r2;", None),
        ("cvt-rn-to-rz", "cvt.rn.f32.f64 \t%f3, %fd1;", "cvt.rz.f32.f64 \t%f3, %fd1;"),
        ("cvt-half-rn-to-rz", "cvt.rn.bf16x2.f32 \t%r9, %f1, %f2;", "cvt.rz.bf16x2.f32 \t%r9, %f1, %f2;"),
        ("cvt-half-rn-to-rz", "cvt.rn.satfinite.e4m3x2.f32 \t%rs1, %f1, %f2;", None),
        ("cvt-rni-to-rzi", "cvt.rni.s32.f32 \t%r9, %f1;", "cvt.rzi.s32.f32 \t%r9, %f1;"),
        ("cvt-sat-dropped", "cvt.sat.u8.s32 \t%rs2, %r1;", "cvt.u8.s32 \t%rs2, %r1;"),
    ],
)
def test_floating_point(name, before, after):
    check(name, before, after)


@pytest.mark.parametrize(
    "name, before, after",
    [
        ("setp-lt-to-le", "setp.lt.s32 \t%p5, %r1, %r2;", "setp.le.s32 \t%p5, %r1, %r2;"),
        ("setp-lt-to-le", "setp.lo.u32 \t%p5, %r1, %r2;", "setp.ls.u32 \t%p5, %r1, %r2;"),
        ("setp-lt-to-le", "setp.lt.f32 \t%p5, %f1, %f2;", None),  # integer comparisons only
        ("setp-eq-to-ne", "setp.eq.b64 \t%p5, %rd1, 0;", "setp.ne.b64 \t%p5, %rd1, 0;"),
        ("setp-ne-to-eq", "setp.ne.f64 \t%p5, %fd1, %fd2;", None),
        ("shr-signed-to-unsigned", "shr.s64 \t%rd5, %rd1, 3;", "shr.u64 \t%rd5, %rd1, 3;"),
        ("mul-lo-to-hi", "mul.lo.s32 \t%r11, %r1, %r2;", "mul.hi.s32 \t%r11, %r1, %r2;"),
        ("mul-lo-to-hi", "mul.wide.s32 \t%rd1, %r1, %r2;", None),
        ("imin-imax-signed-to-unsigned", "max.s16 \t%rs1, %rs2, %rs3;", "max.u16 \t%rs1, %rs2, %rs3;"),
        ("popc-to-clz", "popc.b64 \t%r11, %rd1;", "clz.b64 \t%r11, %rd1;"),
        ("brev-dropped", "brev.b32 \t%r11, %r1;", "mov.b32 \t%r11, %r1;"),
        ("prmt-mode-changed", "prmt.b32 \t%r11, %r1, %r2, 0x3210;", "prmt.b32.f4e \t%r11, %r1, %r2, 0x3210;"),
        ("prmt-mode-changed", "prmt.b32.rc8 \t%r11, %r1, %r2, %r3;", "prmt.b32 \t%r11, %r1, %r2, %r3;"),
        ("dp4a-dp2a-signedness-flipped", "dp4a.s32.u32 \t%r11, %r1, %r2, %r3;", "dp4a.u32.u32 \t%r11, %r1, %r2, %r3;"),
        ("dp2a-lo-to-hi", "dp2a.lo.s32.s32 \t%r11, %r1, %r2, %r3;", "dp2a.hi.s32.s32 \t%r11, %r1, %r2, %r3;"),
        ("sad-signedness-flipped", "vabsdiff.u32.u32.u32 \t%r11, %r1, %r2;", "vabsdiff.s32.s32.s32 \t%r11, %r1, %r2;"),
        ("bfe-signedness-flipped", "bfe.u32 \t%r11, %r1, 4, 8;", "bfe.s32 \t%r11, %r1, 4, 8;"),
        ("shf-wrap-to-clamp", "shf.l.wrap.b32 \t%r11, %r1, %r2, %r3;", "shf.l.clamp.b32 \t%r11, %r1, %r2, %r3;"),
    ],
)
def test_integer(name, before, after):
    check(name, before, after)


@pytest.mark.parametrize(
    "name, before, after",
    [
        ("cp-async-wait-group-plus-one", "cp.async.wait_group \t2;", "cp.async.wait_group \t3;"),
        ("cp-async-wait-group-plus-one", "cp.async.bulk.wait_group.read \t0;", "cp.async.bulk.wait_group.read \t1;"),
        ("cp-async-wait-all-dropped", "cp.async.wait_all;", "// mutant dropped: cp.async.wait_all;"),
        (
            "cp-async-dropped",
            "cp.async.cg.shared.global \t[%r12], [%rd2], 16;",
            "// mutant dropped: cp.async.cg.shared.global \t[%r12], [%rd2], 16;",
        ),
        (
            "mbarrier-arrive-dropped",
            "mbarrier.arrive.expect_tx.shared::cta.b64 \t_, [%r13], 16;",
            "// mutant dropped: mbarrier.arrive.expect_tx.shared::cta.b64 \t_, [%r13], 16;",
        ),
        (
            "mbarrier-parity-flipped",
            "mbarrier.try_wait.parity.shared::cta.b64 \t%p7, [%r13], 0;",
            "mbarrier.try_wait.parity.shared::cta.b64 \t%p7, [%r13], 1;",
        ),
        (
            "mbarrier-parity-flipped",
            "mbarrier.try_wait.parity.shared::cta.b64 \t%p7, [%r13], %r1;",
            "{ .reg .b32 %mutant_parity; xor.b32 %mutant_parity, %r1, 1; "
            "mbarrier.try_wait.parity.shared::cta.b64 \t%p7, [%r13], %mutant_parity; }",
        ),
        ("mbarrier-wait-skipped", "mbarrier.try_wait.parity.shared.b64 p, [%r13], %r14;", "setp.eq.u32 p, 0, 0;"),
        ("cp-async-bulk-dropped", "cp.async.bulk.commit_group;", None),
        (
            "cp-reduce-bulk-add-to-min",
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 \t[%rd2], [%r12], 16;",
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.min.u32 \t[%rd2], [%r12], 16;",
        ),
    ],
)
def test_asynchronous_copies_and_barriers(name, before, after):
    check(name, before, after)


def test_mutate_keeps_lines_and_skips_reverted_sites():
    ptx = "\t// comment: add.f32\n\tadd.f32 \t%f3, %f1, %f2;\n$L__BB0_1:\n\tadd.f32 \t%f4, %f1, %f2; // trailing\n"
    mutated, changed = mutate(BY_NAME["fadd-to-fsub"], ptx)
    assert changed == [1, 3]
    assert mutated.split("\n") == [
        "\t// comment: add.f32",
        "\tsub.f32 \t%f3, %f1, %f2;",
        "$L__BB0_1:",
        "\tsub.f32 \t%f4, %f1, %f2; // trailing",
        "",
    ]
    _, changed = mutate(BY_NAME["fadd-to-fsub"], ptx, skip_lines=frozenset({1}))
    assert changed == [3]
    assert apply(BY_NAME["atom-add-to-exch"], ptx) == (ptx, 0)


def test_every_operator_has_a_site_in_the_sample_kernel():
    ptx = SITES.read_text()
    assert [operator.name for operator in OPERATORS if apply(operator, ptx)[1] == 0] == []


def ptxas_errors(operator, workdir: Path) -> str:
    mutated, _ = apply(operator, SITES.read_text())
    source, cubin = workdir / f"{operator.name}.ptx", workdir / f"{operator.name}.cubin"
    source.write_text(mutated)
    result = subprocess.run([PTXAS, "-arch=sm_90", str(source), "-o", str(cubin)], capture_output=True, text=True)
    return result.stderr if result.returncode else ""


@pytest.mark.skipif(PTXAS is None, reason="ptxas is not installed")
def test_ptxas_accepts_every_mutant_of_the_sample_kernel(tmp_path):
    with ThreadPoolExecutor(max_workers=4) as pool:
        errors = dict(
            zip(
                (operator.name for operator in OPERATORS),
                pool.map(lambda operator: ptxas_errors(operator, tmp_path), OPERATORS),
            )
        )
    assert {name: error for name, error in errors.items() if error} == {}
