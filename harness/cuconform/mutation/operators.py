"""The mutation operators: each rewrites every PTX instruction it applies to (one mutant = one operator applied to
all of one object's PTX), the way a compiler bug in that instruction's lowering would.

An operator's rule is data: a tuple of `Rewrite`s (a regular expression matched at the start of an instruction,
`opcode operands;` without its guard, and its replacement) or `Drop`s (the instruction becomes a comment). The first
rewrite that matches an instruction applies. Each rule keeps to forms ptxas accepts (types, modifiers); rebuild.py
still reverts any site ptxas rejects. Line numbers never change (a replacement stays on its line), so a site is a
line of the PTX."""

import re
from dataclasses import dataclass
from typing import Callable, Union

# Any run of modifiers (".gpu", ".shared::cta", ".L2::cache_hint"), as short as possible.
MODS = r"(?:\.[\w:]+)*?"
INSTRUCTION = re.compile(
    r"^(?P<indent>[ \t]*)(?P<guard>@!?%?\w+[ \t]+)?(?P<body>[a-z][\w.:]*(?:[ \t][^;]*)?;)"
    r"(?P<rest>[ \t]*(?://.*)?)$"
)


@dataclass(frozen=True)
class Rewrite:
    """Replace `pattern` (re.match at the opcode) by `replacement`, a re template or a function of the match.
    `unguarded`: the replacement is a { } block, which cannot take the instruction's guard predicate."""

    pattern: str
    replacement: Union[str, Callable[[re.Match], str]]
    unguarded: bool = False

    def rewrite(self, body, guarded):
        if guarded and self.unguarded:
            return None
        match = re.match(self.pattern, body)
        if match is None:
            return None
        new = match.expand(self.replacement) if isinstance(self.replacement, str) else self.replacement(match)
        return new + body[match.end() :]


DROPPED = "// mutant dropped: "


@dataclass(frozen=True)
class Drop:
    """Remove each instruction matching `pattern` (it stays in the PTX as a comment)."""

    pattern: str

    def rewrite(self, body, guarded):
        return DROPPED + body if re.match(self.pattern, body) else None


@dataclass(frozen=True)
class Operator:
    name: str  # kebab-case, unique: atom-add-to-exch
    family: str
    description: str  # the bug it models, in words
    rule: tuple  # Rewrite and Drop steps; the first that matches an instruction applies


def _swap(pattern_left, pattern_right, left, right):
    """Two rewrites that swap the tokens `left` and `right` where each occurs in its context."""
    return (Rewrite(pattern_left, left), Rewrite(pattern_right, right))


def _flip_parity(match):
    parity = match.group("parity")
    if parity in ("0", "1"):
        return f"{match.group('head')}{1 - int(parity)}"
    return (
        "{ .reg .b32 %mutant_parity; xor.b32 %mutant_parity, "
        + parity
        + ", 1; "
        + match.group("head")
        + "%mutant_parity"
    )


def _wait_group_plus_one(match):
    return f"{match.group(1)}{int(match.group(2)) + 1}"


ATOMICS, WARP, BLOCK, FENCES, MEMORY, FLOAT, INTEGER, ASYNC = (
    "atomics and reductions",
    "warp collectives",
    "block collectives",
    "fences and scopes",
    "loads and stores",
    "floating-point arithmetic and conversions",
    "integer arithmetic and intrinsics",
    "asynchronous copies and barriers",
)

ATOM = r"^(atom" + MODS + r")"
ATOM_OR_RED = r"^((?:atom|red)" + MODS + r")"
FLOAT_TYPE = r"\.(?:f16|bf16|f16x2|bf16x2|f32|f64)\b"
INT_TYPE = r"[su](?:16|32|64)\b"
SCOPES = r"\.(?:cta|cluster|gpu|sys)\b"

_OPERATORS = [
    # --- atomics and reductions (atom, red) ---
    Operator(
        "atom-add-to-exch",
        ATOMICS,
        "atom.add stores the operand instead of adding it (integer and f32/f64)",
        (
            Rewrite(ATOM + r"\.add(" + MODS + r")\.[us](32|64)\b", r"\1.exch\2.b\3"),
            Rewrite(ATOM + r"\.add(" + MODS + r")\.f(32|64)\b", r"\1.exch\2.b\3"),
        ),
    ),
    Operator(
        "atom-exch-to-add",
        ATOMICS,
        "atom.exch adds the operand instead of storing it",
        (Rewrite(ATOM + r"\.exch(" + MODS + r")\.b(32|64)\b", r"\1.add\2.u\3"),),
    ),
    Operator(
        "atom-min-to-max",
        ATOMICS,
        "atom/red .min computes the maximum",
        (Rewrite(ATOM_OR_RED + r"\.min\b", r"\1.max"),),
    ),
    Operator(
        "atom-max-to-min",
        ATOMICS,
        "atom/red .max computes the minimum",
        (Rewrite(ATOM_OR_RED + r"\.max\b", r"\1.min"),),
    ),
    Operator("atom-and-to-or", ATOMICS, "atom/red .and computes or", (Rewrite(ATOM_OR_RED + r"\.and\b", r"\1.or"),)),
    Operator("atom-or-to-and", ATOMICS, "atom/red .or computes and", (Rewrite(ATOM_OR_RED + r"\.or\b", r"\1.and"),)),
    Operator("atom-or-to-xor", ATOMICS, "atom/red .or computes xor", (Rewrite(ATOM_OR_RED + r"\.or\b", r"\1.xor"),)),
    Operator("atom-xor-to-or", ATOMICS, "atom/red .xor computes or", (Rewrite(ATOM_OR_RED + r"\.xor\b", r"\1.or"),)),
    Operator("atom-inc-to-dec", ATOMICS, "atom/red .inc decrements", (Rewrite(ATOM_OR_RED + r"\.inc\b", r"\1.dec"),)),
    Operator("atom-dec-to-inc", ATOMICS, "atom/red .dec increments", (Rewrite(ATOM_OR_RED + r"\.dec\b", r"\1.inc"),)),
    Operator(
        "atom-cas-operands-swapped",
        ATOMICS,
        "atom.cas takes the new value as the compare value and back",
        (
            Rewrite(
                ATOM + r"(\.cas" + MODS + r"\.b(?:16|32|64|128)\s+[^,]+,\s*\[[^\]]*\],\s*)([^,;]+),\s*([^,;]+)",
                r"\1\2\4, \3",
            ),
        ),
    ),
    Operator(
        "red-add-to-max",
        ATOMICS,
        "red.add (integer) computes the maximum",
        (Rewrite(r"^(red" + MODS + r")\.add(" + MODS + r"\.[us](?:32|64))\b", r"\1.max\2"),),
    ),
    Operator(
        "atom-scope-gpu-to-cta",
        ATOMICS,
        "an atom/red of device scope (.gpu, or no scope, which means .gpu) has block scope",
        (
            Rewrite(ATOM_OR_RED + r"\.gpu\b", r"\1.cta"),
            Rewrite(
                r"^(atom|red)\b((?:\.(?:relaxed|acquire|release|acq_rel))?)(?!" + MODS + SCOPES + r")", r"\1\2.cta"
            ),
        ),
    ),
    Operator(
        "atom-scope-sys-to-gpu",
        ATOMICS,
        "an atom/red of system scope has device scope",
        (Rewrite(ATOM_OR_RED + r"\.sys\b", r"\1.gpu"),),
    ),
    Operator(
        "atom-order-to-relaxed",
        ATOMICS,
        "an acquire, release or acq_rel atom/red is relaxed",
        (Rewrite(ATOM_OR_RED + r"\.(?:acq_rel|acquire|release)\b", r"\1.relaxed"),),
    ),
    # --- warp collectives ---
    Operator(
        "shfl-up-to-down",
        WARP,
        "shfl.sync.up reads the lane above",
        (Rewrite(r"^(shfl" + MODS + r")\.up\b", r"\1.down"),),
    ),
    Operator(
        "shfl-down-to-up",
        WARP,
        "shfl.sync.down reads the lane below",
        (Rewrite(r"^(shfl" + MODS + r")\.down\b", r"\1.up"),),
    ),
    Operator(
        "shfl-bfly-to-idx",
        WARP,
        "shfl.sync.bfly reads the lane given, not lane xor mask",
        (Rewrite(r"^(shfl" + MODS + r")\.bfly\b", r"\1.idx"),),
    ),
    Operator(
        "shfl-idx-to-bfly",
        WARP,
        "shfl.sync.idx reads lane xor index",
        (Rewrite(r"^(shfl" + MODS + r")\.idx\b", r"\1.bfly"),),
    ),
    Operator("vote-all-to-any", WARP, "vote.all is vote.any", (Rewrite(r"^(vote" + MODS + r")\.all\b", r"\1.any"),)),
    Operator("vote-any-to-all", WARP, "vote.any is vote.all", (Rewrite(r"^(vote" + MODS + r")\.any\b", r"\1.all"),)),
    Operator(
        "vote-ballot-negated",
        WARP,
        "vote.ballot collects the negated predicate",
        (
            Rewrite(r"^(vote" + MODS + r"\.ballot\.b32\s+[^,]+,\s*)!(%\w+)", r"\1\2"),
            Rewrite(r"^(vote" + MODS + r"\.ballot\.b32\s+[^,]+,\s*)(%\w+)", r"\1!\2"),
        ),
    ),
    Operator("match-any-to-all", WARP, "match.any is match.all", (Rewrite(r"^match\.any\b", r"match.all"),)),
    Operator(
        "match-all-to-any",
        WARP,
        "match.all is match.any (its predicate output is left unset)",
        (
            Rewrite(r"^match\.all(" + MODS + r"\.b(?:32|64)\s+%\w+)\|%\w+", r"match.any\1"),
            Rewrite(r"^match\.all\b", r"match.any"),
        ),
    ),
    Operator(
        "bar-warp-sync-dropped", WARP, "__syncwarp (bar.warp.sync) is not executed", (Drop(r"^bar\.warp\.sync\b"),)
    ),
    Operator(
        "activemask-to-full",
        WARP,
        "__activemask() (activemask.b32) reports all 32 lanes active",
        (Rewrite(r"^activemask\.b32\s+(%\w+)", r"mov.b32 \1, -1"),),
    ),
    Operator(
        "redux-add-to-max", WARP, "redux.sync.add computes the maximum", (Rewrite(r"^(redux\.sync)\.add\b", r"\1.max"),)
    ),
    Operator(
        "redux-min-to-max", WARP, "redux.sync.min computes the maximum", (Rewrite(r"^(redux\.sync)\.min\b", r"\1.max"),)
    ),
    Operator(
        "redux-max-to-min", WARP, "redux.sync.max computes the minimum", (Rewrite(r"^(redux\.sync)\.max\b", r"\1.min"),)
    ),
    Operator("redux-and-to-or", WARP, "redux.sync.and computes or", (Rewrite(r"^(redux\.sync)\.and\b", r"\1.or"),)),
    Operator("redux-or-to-xor", WARP, "redux.sync.or computes xor", (Rewrite(r"^(redux\.sync)\.or\b", r"\1.xor"),)),
    # --- block collectives ---
    Operator(
        "bar-sync-dropped",
        BLOCK,
        "a block barrier (bar.sync, barrier.sync) is not executed",
        (Drop(r"^(?:bar|barrier)(?:\.cta)?\.sync\b"), Drop(r"^bar(?:\.cta)?\.sync\b")),
    ),
    Operator(
        "bar-red-popc-to-and",
        BLOCK,
        "bar.red.popc (__syncthreads_count) returns the .and reduction (0 or 1)",
        (
            Rewrite(
                r"^((?:bar|barrier)(?:\.cta)?\.red)\.popc\.u32\s+(%\w+),\s*([^;]+)",
                r"{ .reg .pred %mutant_p; \1.and.pred %mutant_p, \3; selp.u32 \2, 1, 0, %mutant_p",
                unguarded=True,
            ),
        ),
    ),
    Operator(
        "bar-red-popc-negated",
        BLOCK,
        "bar.red.popc counts the threads whose predicate is false",
        (
            Rewrite(r"^((?:bar|barrier)(?:\.cta)?\.red\.popc\.u32\s+[^;]*,\s*)!(%\w+)", r"\1\2"),
            Rewrite(r"^((?:bar|barrier)(?:\.cta)?\.red\.popc\.u32\s+[^;]*,\s*)(%\w+)", r"\1!\2"),
        ),
    ),
    Operator(
        "bar-red-and-to-or",
        BLOCK,
        "bar.red.and (__syncthreads_and) computes or",
        (Rewrite(r"^((?:bar|barrier)(?:\.cta)?\.red)\.and\b", r"\1.or"),),
    ),
    Operator(
        "bar-red-or-to-and",
        BLOCK,
        "bar.red.or (__syncthreads_or) computes and",
        (Rewrite(r"^((?:bar|barrier)(?:\.cta)?\.red)\.or\b", r"\1.and"),),
    ),
    # --- fences and scopes ---
    Operator(
        "fence-sc-to-acq-rel",
        FENCES,
        "fence.sc is fence.acq_rel (no total order of sc fences)",
        (Rewrite(r"^fence\.sc\b", r"fence.acq_rel"),),
    ),
    Operator(
        "fence-gpu-to-cta",
        FENCES,
        "a device-scope fence (fence.*.gpu, membar.gl) has block scope",
        (Rewrite(r"^(fence\.(?:sc|acq_rel))\.gpu\b", r"\1.cta"), Rewrite(r"^membar\.gl\b", r"membar.cta")),
    ),
    Operator(
        "fence-sys-to-gpu",
        FENCES,
        "a system-scope fence (fence.*.sys, membar.sys) has device scope",
        (Rewrite(r"^(fence\.(?:sc|acq_rel))\.sys\b", r"\1.gpu"), Rewrite(r"^membar\.sys\b", r"membar.gl")),
    ),
    Operator(
        "fence-dropped",
        FENCES,
        "a memory fence (fence.sc, fence.acq_rel, membar) is not executed",
        (Drop(r"^fence\.(?:sc|acq_rel)\b"), Drop(r"^membar\.")),
    ),
    Operator(
        "fence-proxy-dropped",
        FENCES,
        "a proxy fence (fence.proxy.*, fence.mbarrier_init) is not executed",
        (Drop(r"^fence\.proxy\."), Drop(r"^fence\.mbarrier_init\.")),
    ),
    # --- loads and stores ---
    Operator(
        "ld-volatile-to-weak",
        MEMORY,
        "a volatile load is a weak load (may be cached or merged)",
        (Rewrite(r"^(ld" + MODS + r")\.volatile\b", r"\1"),),
    ),
    Operator(
        "st-volatile-to-weak",
        MEMORY,
        "a volatile store is a weak store",
        (Rewrite(r"^(st" + MODS + r")\.volatile\b", r"\1"),),
    ),
    Operator(
        "ld-acquire-to-relaxed",
        MEMORY,
        "ld.acquire is ld.relaxed",
        (Rewrite(r"^(ld" + MODS + r")\.acquire\b", r"\1.relaxed"),),
    ),
    Operator(
        "st-release-to-relaxed",
        MEMORY,
        "st.release is st.relaxed",
        (Rewrite(r"^(st" + MODS + r")\.release\b", r"\1.relaxed"),),
    ),
    Operator(
        "ld-relaxed-to-weak",
        MEMORY,
        "a relaxed (atomic) load is a weak load",
        (Rewrite(r"^(ld" + MODS + r")\.relaxed(" + MODS + r")" + SCOPES, r"\1\2"),),
    ),
    Operator(
        "st-relaxed-to-weak",
        MEMORY,
        "a relaxed (atomic) store is a weak store",
        (Rewrite(r"^(st" + MODS + r")\.relaxed(" + MODS + r")" + SCOPES, r"\1\2"),),
    ),
    Operator(
        "ld-nc-to-plain",
        MEMORY,
        "a non-coherent (read-only cache) load is a plain global load",
        (Rewrite(r"^(ld\.global" + MODS + r")\.nc\b", r"\1"),),
    ),
    Operator(
        "ld-cache-hint-to-cg",
        MEMORY,
        "a load's cache operator (.ca, .cs, .lu, .cv) is .cg",
        (Rewrite(r"^(ld" + MODS + r")\.(?:ca|cs|lu|cv)\b", r"\1.cg"),),
    ),
    Operator(
        "st-cache-hint-to-wb",
        MEMORY,
        "a store's cache operator (.cg, .cs, .wt) is .wb",
        (Rewrite(r"^(st" + MODS + r")\.(?:cg|cs|wt)\b", r"\1.wb"),),
    ),
    # --- floating-point arithmetic and conversions ---
    Operator(
        "fadd-rn-to-rz",
        FLOAT,
        "f32/f64 add and sub round toward zero",
        (Rewrite(r"^((?:add|sub))(?:\.rn)?((?:\.ftz)?(?:\.sat)?\.f(?:32|64)\b)", r"\1.rz\2"),),
    ),
    Operator(
        "fmul-rn-to-rz",
        FLOAT,
        "f32/f64 mul rounds toward zero",
        (Rewrite(r"^mul(?:\.rn)?((?:\.ftz)?(?:\.sat)?\.f(?:32|64)\b)", r"mul.rz\1"),),
    ),
    Operator(
        "fma-rn-to-rz",
        FLOAT,
        "f32/f64 fma rounds toward zero",
        (Rewrite(r"^fma\.rn((?:\.ftz)?(?:\.sat)?\.f(?:32|64)\b)", r"fma.rz\1"),),
    ),
    Operator(
        "fadd-to-fsub",
        FLOAT,
        "a floating-point add (any of f16, bf16, f32, f64, x2) subtracts",
        (Rewrite(r"^add(" + MODS + FLOAT_TYPE + r")", r"sub\1"),),
    ),
    Operator(
        "div-rn-to-approx",
        FLOAT,
        "an IEEE f32 division is the approximate one",
        (Rewrite(r"^div\.rn((?:\.ftz)?\.f32\b)", r"div.approx\1"),),
    ),
    Operator(
        "div-rn-to-rz",
        FLOAT,
        "an IEEE f32/f64 division rounds toward zero",
        (Rewrite(r"^div\.rn((?:\.ftz)?\.f(?:32|64)\b)", r"div.rz\1"),),
    ),
    Operator(
        "sqrt-rn-to-approx",
        FLOAT,
        "an IEEE f32 square root is the approximate one",
        (Rewrite(r"^sqrt\.rn((?:\.ftz)?\.f32\b)", r"sqrt.approx\1"),),
    ),
    Operator(
        "sqrt-rn-to-rz",
        FLOAT,
        "an IEEE f32/f64 square root rounds toward zero",
        (Rewrite(r"^sqrt\.rn((?:\.ftz)?\.f(?:32|64)\b)", r"sqrt.rz\1"),),
    ),
    Operator(
        "rcp-rn-to-approx",
        FLOAT,
        "an IEEE f32 reciprocal is the approximate one",
        (Rewrite(r"^rcp\.rn((?:\.ftz)?\.f32\b)", r"rcp.approx\1"),),
    ),
    Operator(
        "ftz-added",
        FLOAT,
        "f32 arithmetic flushes subnormal inputs and results to zero",
        (
            Rewrite(
                r"^((?:add|sub|mul|fma|mad|div|sqrt|rcp|rsqrt|ex2|lg2|sin|cos|min|max|abs|neg|setp|testp)"
                r"(?:\.(?!ftz\b)(?!sat\b)(?!NaN\b)(?!xorsign\b)(?!f32\b)[\w:]+)*)((?:\.sat|\.NaN|\.xorsign)?"
                r"(?:\.abs)?\.f32\b)",
                r"\1.ftz\2",
            ),
        ),
    ),
    Operator(
        "fmin-to-fmax",
        FLOAT,
        "a floating-point min computes the maximum",
        (Rewrite(r"^min(" + MODS + FLOAT_TYPE + r")", r"max\1"),),
    ),
    Operator(
        "fmax-to-fmin",
        FLOAT,
        "a floating-point max computes the minimum",
        (Rewrite(r"^max(" + MODS + FLOAT_TYPE + r")", r"min\1"),),
    ),
    Operator(
        "cvt-rn-to-rz",
        FLOAT,
        "a conversion to f32/f64 rounds toward zero",
        (Rewrite(r"^cvt\.rn((?:\.ftz)?(?:\.sat)?\.f(?:32|64)\.)", r"cvt.rz\1"),),
    ),
    Operator(
        "cvt-half-rn-to-rz",
        FLOAT,
        "a conversion to f16/bf16 (and x2) rounds toward zero",
        (
            Rewrite(
                r"^cvt\.rn((?:\.relu)?(?:\.satfinite)?(?:\.ftz)?(?:\.sat)?\.(?:f16|bf16|f16x2|bf16x2)\.)", r"cvt.rz\1"
            ),
        ),
    ),
    Operator(
        "cvt-rni-to-rzi", FLOAT, "rounding to the nearest integer truncates", (Rewrite(r"^cvt\.rni\b", r"cvt.rzi"),)
    ),
    Operator(
        "cvt-rzi-to-rni",
        FLOAT,
        "a truncating conversion to an integer rounds to nearest",
        (Rewrite(r"^cvt\.rzi\b", r"cvt.rni"),),
    ),
    Operator(
        "cvt-rmi-to-rpi",
        FLOAT,
        "rounding down to an integer (floor) rounds up (ceil)",
        (Rewrite(r"^cvt\.rmi\b", r"cvt.rpi"),),
    ),
    Operator(
        "fsetp-ordered-to-unordered",
        FLOAT,
        "a floating-point comparison is true when an operand is NaN",
        (Rewrite(r"^setp\.(eq|ne|lt|le|gt|ge)(" + MODS + FLOAT_TYPE + r")", r"setp.\1u\2"),),
    ),
    Operator(
        "cvt-sat-dropped",
        FLOAT,
        "a saturating conversion does not saturate",
        (Rewrite(r"^(cvt" + MODS + r")\.sat\b", r"\1"),),
    ),
    # --- integer arithmetic and intrinsics ---
    Operator(
        "setp-lt-to-le",
        INTEGER,
        "an integer < compares <=",
        (
            Rewrite(r"^(setp)\.lt(" + MODS + r"\." + INT_TYPE + r")", r"\1.le\2"),
            Rewrite(r"^(setp)\.lo(" + MODS + r"\.u(?:16|32|64)\b)", r"\1.ls\2"),
        ),
    ),
    Operator(
        "setp-le-to-lt",
        INTEGER,
        "an integer <= compares <",
        (
            Rewrite(r"^(setp)\.le(" + MODS + r"\." + INT_TYPE + r")", r"\1.lt\2"),
            Rewrite(r"^(setp)\.ls(" + MODS + r"\.u(?:16|32|64)\b)", r"\1.lo\2"),
        ),
    ),
    Operator(
        "setp-gt-to-ge",
        INTEGER,
        "an integer > compares >=",
        (
            Rewrite(r"^(setp)\.gt(" + MODS + r"\." + INT_TYPE + r")", r"\1.ge\2"),
            Rewrite(r"^(setp)\.hi(" + MODS + r"\.u(?:16|32|64)\b)", r"\1.hs\2"),
        ),
    ),
    Operator(
        "setp-ge-to-gt",
        INTEGER,
        "an integer >= compares >",
        (
            Rewrite(r"^(setp)\.ge(" + MODS + r"\." + INT_TYPE + r")", r"\1.gt\2"),
            Rewrite(r"^(setp)\.hs(" + MODS + r"\.u(?:16|32|64)\b)", r"\1.hi\2"),
        ),
    ),
    Operator(
        "setp-eq-to-ne",
        INTEGER,
        "an integer == compares !=",
        (Rewrite(r"^(setp)\.eq(" + MODS + r"\.[sub](?:16|32|64)\b)", r"\1.ne\2"),),
    ),
    Operator(
        "setp-ne-to-eq",
        INTEGER,
        "an integer != compares ==",
        (Rewrite(r"^(setp)\.ne(" + MODS + r"\.[sub](?:16|32|64)\b)", r"\1.eq\2"),),
    ),
    Operator(
        "shr-signed-to-unsigned",
        INTEGER,
        "an arithmetic shift right is a logical one",
        (Rewrite(r"^shr\.s(16|32|64)\b", r"shr.u\1"),),
    ),
    Operator(
        "shr-unsigned-to-signed",
        INTEGER,
        "a logical shift right is an arithmetic one",
        (Rewrite(r"^shr\.u(16|32|64)\b", r"shr.s\1"),),
    ),
    Operator(
        "mul-lo-to-hi", INTEGER, "mul.lo returns the high half of the product", (Rewrite(r"^mul\.lo\.", r"mul.hi."),)
    ),
    Operator(
        "imin-imax-signed-to-unsigned",
        INTEGER,
        "a signed integer min/max compares unsigned",
        (Rewrite(r"^(min|max)\.s(16|32|64)\b(?!\.relu)", r"\1.u\2"),),
    ),
    Operator(
        "imin-imax-unsigned-to-signed",
        INTEGER,
        "an unsigned integer min/max compares signed",
        (Rewrite(r"^(min|max)\.u(16|32|64)\b", r"\1.s\2"),),
    ),
    Operator("popc-to-clz", INTEGER, "popc counts leading zeros", (Rewrite(r"^popc\.", r"clz."),)),
    Operator("brev-dropped", INTEGER, "brev returns its operand unreversed", (Rewrite(r"^brev\.", r"mov."),)),
    Operator(
        "prmt-mode-changed",
        INTEGER,
        "prmt's mode changes (default to .f4e, a named mode to default)",
        (
            Rewrite(r"^prmt\.b32\.(?:f4e|b4e|rc8|ecl|ecr|rc16)\b", r"prmt.b32"),
            Rewrite(r"^prmt\.b32(?=\s)", r"prmt.b32.f4e"),
        ),
    ),
    Operator(
        "dp4a-dp2a-signedness-flipped",
        INTEGER,
        "dp4a/dp2a reads its first operand with the other signedness",
        (Rewrite(r"^(dp4a|dp2a\.(?:lo|hi))\.s32", r"\1.u32"), Rewrite(r"^(dp4a|dp2a\.(?:lo|hi))\.u32", r"\1.s32")),
    ),
    Operator(
        "dp2a-lo-to-hi",
        INTEGER,
        "dp2a uses the high bytes of its second operand",
        (Rewrite(r"^dp2a\.lo\b", r"dp2a.hi"),),
    ),
    Operator(
        "sad-signedness-flipped",
        INTEGER,
        "sad/vabsdiff compare with the other signedness",
        (
            Rewrite(r"^sad\.s(16|32|64)\b", r"sad.u\1"),
            Rewrite(r"^sad\.u(16|32|64)\b", r"sad.s\1"),
            Rewrite(r"^(vabsdiff[24]?)\.u32\.u32\.u32\b", r"\1.s32.s32.s32"),
            Rewrite(r"^(vabsdiff[24]?)\.s32\.s32\.s32\b", r"\1.u32.u32.u32"),
        ),
    ),
    Operator(
        "bfe-signedness-flipped",
        INTEGER,
        "bfe sign-extends an unsigned field and zero-extends a signed one",
        (Rewrite(r"^bfe\.s(32|64)\b", r"bfe.u\1"), Rewrite(r"^bfe\.u(32|64)\b", r"bfe.s\1")),
    ),
    Operator(
        "shf-wrap-to-clamp",
        INTEGER,
        "a funnel shift clamps its shift amount instead of wrapping it",
        (Rewrite(r"^shf\.([lr])\.wrap\b", r"shf.\1.clamp"),),
    ),
    # --- asynchronous copies and barriers ---
    Operator(
        "cp-async-wait-group-plus-one",
        ASYNC,
        "cp.async.wait_group N waits for one group fewer",
        (Rewrite(r"^(cp\.async\.(?:bulk\.)?wait_group(?:\.read)?\s+)(\d+)", _wait_group_plus_one),),
    ),
    Operator(
        "cp-async-wait-all-dropped", ASYNC, "cp.async.wait_all is not executed", (Drop(r"^cp\.async\.wait_all\b"),)
    ),
    Operator(
        "cp-async-commit-group-dropped",
        ASYNC,
        "cp.async.commit_group is not executed",
        (Drop(r"^cp\.async\.(?:bulk\.)?commit_group\b"),),
    ),
    Operator(
        "cp-async-dropped",
        ASYNC,
        "an asynchronous copy cp.async.ca/cg (global to shared) is not executed",
        (Drop(r"^cp\.async\.c[ag]\b"),),
    ),
    Operator(
        "mbarrier-arrive-dropped",
        ASYNC,
        "an mbarrier arrive (or arrive-drop) is not executed",
        (Drop(r"^mbarrier\.arrive(?:_drop)?\b"), Drop(r"^cp\.async\.mbarrier\.arrive\b")),
    ),
    Operator(
        "mbarrier-parity-flipped",
        ASYNC,
        "an mbarrier parity wait waits for the other phase",
        (
            Rewrite(
                r"^(?P<head>mbarrier\.(?:try_wait|test_wait)\.parity" + MODS + r"\.b64\s+[^,]+,\s*\[[^\]]+\],\s*)"
                r"(?P<parity>[^,;]+?)(?=\s*[,;])",
                _flip_parity,
            ),
        ),
    ),
    Operator(
        "mbarrier-wait-skipped",
        ASYNC,
        "an mbarrier try_wait/test_wait reports the phase complete at once",
        (Rewrite(r"^mbarrier\.(?:try_wait|test_wait)" + MODS + r"\.b64\s+([^,\s]+),[^;]*", r"setp.eq.u32 \1, 0, 0"),),
    ),
    Operator(
        "cp-async-bulk-dropped",
        ASYNC,
        "a bulk asynchronous copy (cp.async.bulk*) is not executed",
        (Drop(r"^cp\.async\.bulk\.(?!commit_group|wait_group)"),),
    ),
    Operator(
        "cp-reduce-bulk-add-to-min",
        ASYNC,
        "a bulk asynchronous reduction .add computes the minimum",
        (Rewrite(r"^(cp\.reduce\.async\.bulk" + MODS + r")\.add(" + MODS + r"\.[us](?:32|64))\b", r"\1.min\2"),),
    ),
]

OPERATORS: tuple = tuple(_OPERATORS)
BY_NAME = {operator.name: operator for operator in OPERATORS}


def mutate(op: Operator, ptx: str, skip_lines: frozenset = frozenset()) -> tuple[str, list[int]]:
    """`ptx` with `op` applied at every site but the (0-based) lines in `skip_lines`, and the lines changed."""
    lines = ptx.split("\n")
    changed = []
    for number, line in enumerate(lines):
        if number in skip_lines:
            continue
        instruction = INSTRUCTION.match(line)
        if instruction is None:
            continue
        guard = instruction.group("guard") or ""
        for step in op.rule:
            new = step.rewrite(instruction.group("body"), bool(guard))
            if new is not None:
                if new.startswith("{"):  # a block of its own (the instruction's ";" ends its last statement)
                    new += " }"
                if new.startswith(DROPPED):  # the guard goes into the comment with the instruction
                    new, guard = DROPPED + guard + new[len(DROPPED) :], ""
                if new != instruction.group("body"):
                    lines[number] = instruction.group("indent") + guard + new + instruction.group("rest")
                    changed.append(number)
                break
    return "\n".join(lines), changed


def apply(op: Operator, ptx: str) -> tuple[str, int]:
    """The PTX mutated by `op` at every site, and the number of sites (0: the operator does not apply)."""
    mutated, changed = mutate(op, ptx)
    return mutated, len(changed)


def sites_by_operator(ptx: str) -> dict[str, int]:
    """{operator name: number of sites} for the operators that apply to `ptx`."""
    counts = {operator.name: apply(operator, ptx)[1] for operator in OPERATORS}
    return {name: count for name, count in counts.items() if count}
