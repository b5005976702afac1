"""Compile-time rules: the case files of suites/compile/ and what each one expects (suites/compile/README.md).

A case is one small CUDA source whose name says the documented outcome, in the style of CCCL's tests:

    <name>.pass.cu   every compiler must accept it (and, where the header says so, emit the stated PTX)
    <name>.fail.cu   every compiler must reject it with the diagnostic its header names
    <name>.warn.cu   every compiler must accept it and warn with the diagnostic its header names

Its metadata is the comment block at the top of the file, one `key: value` per line:

    // rule: ExecutionSpace.GlobalMustReturnVoid            stable id, GoogleTest style (Suite.Name, CamelCase)
    // section: 5.4.1.1                                     the guide section it checks
    // statement: a __global__ function must return void    the documented rule, in one line
    // error: __global__ function.*void                      .fail: regex the diagnostics must match
    // error.clang: must have void return type              ... for one compiler (nvcc, clang or nvrtc)
    // warning: ...                                          .warn: the same, for the expected warning
    // skip.nvrtc: launches a kernel from host code          the compiler cannot take this case, and why
    // std: c++20                                            language standard (default c++17)
    // arch: sm_90a                                          target (default: the run's target, sm_90 unless the
    //                                                       build or CUCONFORM_COMPILE_TARGET names another)
    // requires-cc: 9.0                                      the guide gives the feature to CC 9.0 and later only: on
    //                                                       a lower target a .pass case must be rejected, and a
    //                                                       .fail/.warn case (misuse of the feature) skips
    // flags: ...  flags.nvcc: ...                          extra options, for all or for one compiler
    // ptx-match: ld\\.global\\.nc                           .pass: regex that the device assembly must match
    // ptx-no-match: ...                                     ... or must not match (both repeatable)
    // requires-header: nvfunctional                         a toolkit header the case includes (repeatable): where
    //                                                       the toolkit lacks it, every compiler skips the case
    // note: ...                                             free text (repeatable)

A line `//   more text` (indented) continues the key before it. For NVRTC, which shares nvcc's front end, a missing
`error.nvrtc` falls back to `error.nvcc`, then to `error`.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from cuconform.kinds import Compiler, names

COMPILERS = names(Compiler)  # in their order: a case runs once per compiler
OUTCOMES = ("pass", "fail", "warn")
DEFAULT_STD = "c++17"
DEFAULT_ARCH = "sm_90"

_PER_COMPILER = ("error", "warning", "skip", "flags")
_SINGLE = ("rule", "section", "statement", "std", "arch", "requires-cc")
_REPEATED = ("ptx-match", "ptx-no-match", "requires-header", "note")
_KEY = re.compile(r"^//\s?([a-z][a-z-]*)(?:\.([a-z]+))?:\s*(.*?)\s*$")
_CONTINUATION = re.compile(r"^//\s{2,}(\S.*?)\s*$")
_RULE_ID = re.compile(r"^[A-Z][A-Za-z0-9]*\.[A-Z][A-Za-z0-9]*$")
# The spelling only: whether the section is a heading of a registered document is checked where every binary's
# listing is read (the section registry, spec/sections/).
_SECTION = re.compile(r"^\S.*\S$|^\S$")
_STD = re.compile(r"^c\+\+(11|14|17|20|23)$")
_ARCH = re.compile(r"^sm_\d+[af]?$")
_CC = re.compile(r"^\d+\.\d$")
_HEADER = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_+.-]*(/[A-Za-z0-9_][A-Za-z0-9_+.-]*)*$")  # relative, no '..'


class CaseError(Exception):
    """A case file that cannot be used; str() is one line: 'path:line: what is wrong'."""

    def __init__(self, path: Path, line: int, message: str):
        super().__init__(f"{path}:{line}: {message}")


@dataclass(frozen=True)
class CompileCase:
    path: Path
    rule: str
    section: str
    statement: str
    outcome: str  # pass | fail | warn
    std: str = DEFAULT_STD
    arch: str = DEFAULT_ARCH
    arch_given: bool = False  # the header names its target: the case tests that target, whatever the run's
    requires_cc: str | None = None  # '9.0': the feature exists from this CC on
    patterns: dict[str, str] = field(default_factory=dict)  # compiler -> regex (error for .fail, warning for .warn)
    skips: dict[str, str] = field(default_factory=dict)  # compiler -> reason
    flags: dict[str, tuple[str, ...]] = field(default_factory=dict)  # compiler -> extra options
    ptx_match: tuple[str, ...] = ()
    ptx_no_match: tuple[str, ...] = ()
    required_headers: tuple[str, ...] = ()  # toolkit headers, e.g. 'nvfunctional'
    notes: tuple[str, ...] = ()

    def target(self, run_target: str | None) -> str:
        """The target the case compiles for in a run for `run_target` (sm_80; None: the default)."""
        return self.arch if self.arch_given or run_target is None else run_target

    def unavailable_on(self, run_target: str | None) -> bool:
        """Whether the case's feature is documented as absent on the target it compiles for in this run."""
        return self.requires_cc is not None and cc_of(self.target(run_target)) < _cc_tuple(self.requires_cc)

    @property
    def checks_ptx(self) -> bool:
        return bool(self.ptx_match or self.ptx_no_match)

    def test_name(self, compiler: str) -> str:
        """The GoogleTest-style name of one (case, compiler) pair: 'ExecutionSpace.GlobalMustReturnVoid[nvcc]'."""
        return f"{self.rule}[{compiler}]"

    def pattern(self, compiler: str) -> str | None:
        return self.patterns.get(compiler)


def _cc_tuple(cc: str) -> tuple[int, int]:
    major, minor = cc.split(".")
    return int(major), int(minor)


def cc_of(target: str) -> tuple[int, int]:
    """sm_90a -> (9, 0), sm_100f -> (10, 0), sm_121 -> (12, 1)."""
    digits = re.match(r"sm_(\d+)", target).group(1)
    return int(digits[:-1]), int(digits[-1])


def outcome_of(path: Path) -> str | None:
    """'x.fail.cu' -> 'fail'; None for a file that is not a case."""
    parts = path.name.split(".")
    if len(parts) >= 3 and parts[-1] == "cu" and parts[-2] in OUTCOMES:
        return parts[-2]
    return None


def _header(text: str) -> list[tuple[int, str]]:
    """The leading comment block: (line number, line) for each `//` line before the first other line."""
    lines = []
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped.startswith("//"):
            break
        lines.append((number, stripped))
    return lines


def parse_case(path: Path, text: str | None = None) -> CompileCase:
    outcome = outcome_of(path)
    if outcome is None:
        raise CaseError(path, 1, "a case file is named <name>.pass.cu, <name>.fail.cu or <name>.warn.cu")
    if text is None:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise CaseError(path, 1, f"cannot read: {error}") from None

    entries: list[list] = []  # [key, qualifier, value, line]
    for number, line in _header(text):
        continued = _CONTINUATION.match(line)
        if continued and entries and entries[-1][3] is not None:
            entries[-1][2] += " " + continued.group(1)
            continue
        match = _KEY.match(line)
        if not match:
            entries.append([None, None, None, None])  # prose in the header ends the key before it
            continue
        key, qualifier, value = match.groups()
        if key not in _SINGLE + _REPEATED + _PER_COMPILER:
            raise CaseError(
                path, number, f"unknown key '{key}' (known: {', '.join(_SINGLE + _PER_COMPILER + _REPEATED)})"
            )
        if qualifier is not None and key not in _PER_COMPILER:
            raise CaseError(path, number, f"'{key}' holds for every compiler: write '{key}:', not '{key}.{qualifier}:'")
        if qualifier is not None and qualifier not in COMPILERS:
            raise CaseError(path, number, f"unknown compiler '{qualifier}' (known: {', '.join(COMPILERS)})")
        if not value:
            raise CaseError(path, number, f"'{key}' needs a value")
        entries.append([key, qualifier, value, number])

    single: dict[str, str] = {}
    per_compiler: dict[str, dict[str, str]] = {key: {} for key in _PER_COMPILER}
    repeated: dict[str, list[str]] = {key: [] for key in _REPEATED}
    key_lines: dict[str, int] = {}
    for key, qualifier, value, number in entries:
        if key is None:
            continue
        name = key if qualifier is None else f"{key}.{qualifier}"
        if key in _REPEATED:
            repeated[key].append(value)
            key_lines.setdefault(name, number)
            continue
        if name in key_lines:
            raise CaseError(path, number, f"'{name}' given twice")
        key_lines[name] = number
        if key in _SINGLE:
            single[key] = value
        else:
            per_compiler[key][qualifier or "*"] = value

    for required in ("rule", "section", "statement"):
        if required not in single:
            raise CaseError(path, 1, f"the header needs '// {required}: ...'")
    rule, section = single["rule"], single["section"]
    if not _RULE_ID.match(rule):
        raise CaseError(path, key_lines["rule"], f"rule id '{rule}' must look like Suite.Name (CamelCase, no '_')")
    if not _SECTION.match(section):
        raise CaseError(
            path, key_lines["section"], f"section '{section}' must be a heading such as 5.4.1.1 or 'PG12.9 18.5.3'"
        )
    std = single.get("std", DEFAULT_STD)
    if not _STD.match(std):
        raise CaseError(path, key_lines["std"], f"std '{std}' must be one of c++11 ... c++23")
    arch = single.get("arch", DEFAULT_ARCH)
    if not _ARCH.match(arch):
        raise CaseError(path, key_lines["arch"], f"arch '{arch}' must look like sm_90 or sm_90a")
    requires_cc = single.get("requires-cc")
    if requires_cc is not None and not _CC.match(requires_cc):
        raise CaseError(path, key_lines["requires-cc"], f"requires-cc '{requires_cc}' must be a CC such as 9.0")

    skips = {c: per_compiler["skip"].get(c) or per_compiler["skip"].get("*") for c in COMPILERS}
    skips = {c: reason for c, reason in skips.items() if reason}
    patterns = _patterns(path, outcome, per_compiler, key_lines, skips)
    flags = {}
    for compiler in COMPILERS:
        words = []
        for slot in ("*", compiler):
            if slot in per_compiler["flags"]:
                try:
                    words += shlex.split(per_compiler["flags"][slot])
                except ValueError as error:
                    raise CaseError(
                        path, key_lines.get("flags" if slot == "*" else f"flags.{slot}", 1), f"flags: {error}"
                    ) from None
        flags[compiler] = tuple(words)
    for key in ("ptx-match", "ptx-no-match"):
        for pattern in repeated[key]:
            _check_regex(path, key_lines[key], key, pattern)
    for header in repeated["requires-header"]:
        if not _HEADER.match(header) or ".." in header.split("/"):
            raise CaseError(
                path,
                key_lines["requires-header"],
                f"requires-header '{header}' must be a header name as in #include <...>, e.g. nvfunctional",
            )
    if outcome != "pass" and (repeated["ptx-match"] or repeated["ptx-no-match"]):
        raise CaseError(
            path, key_lines.get("ptx-match") or key_lines["ptx-no-match"], "PTX checks belong to .pass cases"
        )
    return CompileCase(
        path=path,
        rule=rule,
        section=section,
        statement=single["statement"],
        outcome=outcome,
        std=std,
        arch=arch,
        arch_given="arch" in single,
        requires_cc=requires_cc,
        patterns=patterns,
        skips=skips,
        flags=flags,
        ptx_match=tuple(repeated["ptx-match"]),
        ptx_no_match=tuple(repeated["ptx-no-match"]),
        required_headers=tuple(repeated["requires-header"]),
        notes=tuple(repeated["note"]),
    )


def _patterns(
    path: Path, outcome: str, per_compiler: dict[str, dict[str, str]], key_lines: dict[str, int], skips: dict[str, str]
) -> dict[str, str]:
    """The diagnostic pattern each compiler must print: error.* for .fail, warning.* for .warn."""
    wanted = {"fail": "error", "warn": "warning"}.get(outcome)
    other = "warning" if wanted == "error" else "error"
    if per_compiler[other] and outcome != "pass":
        raise CaseError(
            path,
            min(v for k, v in key_lines.items() if k.split(".")[0] == other),
            f"a .{outcome} case names '{wanted}' patterns, not '{other}'",
        )
    if wanted is None:
        for key in ("error", "warning"):
            if per_compiler[key]:
                line = min(v for k, v in key_lines.items() if k.split(".")[0] == key)
                raise CaseError(path, line, f"a .pass case expects no diagnostic: '{key}' belongs to .fail/.warn")
        return {}
    given = per_compiler[wanted]
    fallbacks = {"nvcc": ("nvcc", "*"), "clang": ("clang", "*"), "nvrtc": ("nvrtc", "nvcc", "*")}
    patterns = {}
    for compiler in COMPILERS:
        pattern = next((given[slot] for slot in fallbacks[compiler] if slot in given), None)
        if pattern is None:
            if compiler in skips:
                continue
            raise CaseError(
                path,
                1,
                f"a .{outcome} case needs '// {wanted}: <regex>' (or '{wanted}.{compiler}:') "
                f"for {compiler}, so that a failure for another reason does not count",
            )
        slot = next(slot for slot in fallbacks[compiler] if slot in given)
        _check_regex(path, key_lines[wanted if slot == "*" else f"{wanted}.{slot}"], wanted, pattern)
        patterns[compiler] = pattern
    return patterns


def _check_regex(path: Path, line: int, key: str, pattern: str) -> None:
    try:
        re.compile(pattern)
    except re.error as error:
        raise CaseError(path, line, f"{key}: not a regular expression: {error}") from None


def find_cases(root: Path) -> list[Path]:
    """Every case file under `root`, sorted by path."""
    return sorted(path for path in root.rglob("*.cu") if outcome_of(path) is not None)


def load_cases(root: Path) -> list[CompileCase]:
    """Every case under `root`, parsed; raises CaseError for the first bad file or a rule id used twice."""
    cases, seen = [], {}
    for path in find_cases(root):
        case = parse_case(path)
        if case.rule in seen:
            raise CaseError(path, 1, f"rule id {case.rule} is also used by {seen[case.rule]}")
        seen[case.rule] = path
        cases.append(case)
    return cases


def sample(cases: list[CompileCase]) -> list[str]:
    """The deterministic share of the compile-time tests that scripts/test runs (the full set: `scripts/conformance
    run --area compile`): every case once, through the compiler its place in rule order picks (nvcc, clang, NVRTC in
    turn, passing over a compiler the case skips), so each compiler takes about a third; and for every kind of case
    (pass, fail, warn, PTX check) at least one through each compiler that can take one. Test names, sorted."""
    ordered = sorted(cases, key=lambda case: case.rule)
    chosen: set[str] = set()
    for index, case in enumerate(ordered):
        able = [compiler for compiler in COMPILERS if compiler not in case.skips] or list(COMPILERS)
        chosen.add(case.test_name(able[index % len(able)]))
    for kind in (*OUTCOMES, "ptx"):
        of_kind = [case for case in ordered if (case.checks_ptx if kind == "ptx" else case.outcome == kind)]
        for compiler in COMPILERS:
            if not any(case.test_name(compiler) in chosen for case in of_kind):
                able = next((case for case in of_kind if compiler not in case.skips), None)
                if able is not None:
                    chosen.add(able.test_name(compiler))
    return sorted(chosen)
