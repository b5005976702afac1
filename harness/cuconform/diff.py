"""What changed between two runs (two compilers, two drivers, two dates): `scripts/conformance diff A B`, whose
command line is cli/conformance/diff.py.

A and B are results.json files or the report folders that hold them (reports/README.md). Tests are matched by id.
Each test that differs lands in exactly one group:

    regression      pass in A, failing in B (fail, crash, timeout, or missing: it never produced a result)
    fix             failing in A, pass in B
    status change   any other change of raw status (pass -> skip, skip -> fail, fail -> crash, ...)
    inconclusive    pass in one run, in the other a skip for want of evidence (a litmus test whose sibling saw no
                    weak outcome that time): no behaviour changed, so not counted as a difference
    verdict change  the same status, another verdict (its expectation differs: xfail in A, fail in B)
    only in A/B     the test ran in one run only (the header says when a binary of a run could not start: its
                    tests are then missing from that run, not removed)

Exit codes: 0 no regression (with --fail-on changes: no difference but inconclusive ones), 1 otherwise, 2 bad
input.
"""

from __future__ import annotations

import fnmatch
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from cuconform.overview import Unstartable, gpu_text, unstartable
from cuconform.files import printable
from cuconform.results_file import ResultsError, read

EXIT_OK, EXIT_DIFFERENT, EXIT_BAD_INPUT = 0, 1, 2
FAILING = frozenset({"fail", "crash", "timeout", None})  # None: never produced a result (missing)
GROUPS = ("regression", "fix", "status", "inconclusive", "verdict", "only_a", "only_b")
TITLES = {
    "regression": "regressions: pass in A, failing in B",
    "fix": "fixes: failing in A, pass in B",
    "status": "status changes",
    "inconclusive": "inconclusive in one run: pass in the other, a skip for want of evidence here",
    "verdict": "verdict changes: same status, another expectation",
    "only_a": "only in A",
    "only_b": "only in B",
}
MESSAGE_LINES = 3
# How a test that ran but could not decide says so (suites/litmus/engine/verdict.cpp): its skip message starts so.
INCONCLUSIVE = "inconclusive:"


class DiffError(Exception):
    """A run that cannot be read; str() is one line for the user."""


@dataclass(frozen=True)
class RunResult:
    id: str
    rule: str | None
    section: str
    status: str | None
    verdict: str | None
    message: str

    @classmethod
    def from_json(cls, entry: dict) -> "RunResult":
        return cls(
            id=str(entry["id"]),
            rule=entry.get("rule"),
            section=str(entry.get("section") or ""),
            status=entry.get("status"),
            verdict=entry.get("verdict"),
            message=str(entry.get("message") or ""),
        )

    @property
    def shown_status(self) -> str:
        return self.status or "missing"


@dataclass
class Run:
    path: Path
    environment: dict
    tests: dict[str, RunResult]
    complete: bool = True
    unstartable: list[Unstartable] = field(default_factory=list)  # its binaries that could not start

    @property
    def label(self) -> str:
        """'nvcc 13.0.88; NVIDIA H100 80GB HBM3 (CC 9.0), driver for CUDA 13.0; 2026-11-22T05:12:09+00:00'"""
        env = self.environment
        build = env.get("build") or {}
        parts = [f"{build.get('compiler', '?')} {build.get('compiler_version', '')}".strip()]
        made = [f"CUDA toolkit {build['cuda_toolkit']}"] if build.get("cuda_toolkit") else []
        made += [f"for {_targets(build)}"] if build.get("architectures") else []
        if made:
            parts[0] += f" ({', '.join(made)})"
        parts.append(gpu_text(env, driver=True))
        if env.get("started"):
            parts.append(str(env["started"]))
        return "; ".join(parts)


def _targets(build: dict) -> str:
    """'sm_90', 'sm_80 sm_90a' from the build's architectures ('90', '80;90a-real'; clang's 'sm_90')."""
    names = [a.split("-")[0] for a in str(build.get("architectures", "")).replace(",", ";").split(";") if a]
    return " ".join(a if a.startswith("sm_") else f"sm_{a}" for a in names)


def build_differences(a: Run, b: Run) -> list[str]:
    """What differs between the builds of the two runs (compiler, toolkit, targets): the diff's first question is
    which of them its changes come from."""
    build_a, build_b = a.environment.get("build") or {}, b.environment.get("build") or {}
    lines = []
    for key, what in (
        ("compiler", "compiler"),
        ("compiler_version", "compiler version"),
        ("cuda_toolkit", "CUDA toolkit"),
        ("architectures", "targets"),
    ):
        # Targets as the GPU gets them: '90-real' (CMake's "native") and '90' both give sm_90 code.
        shown = _targets if key == "architectures" else lambda build: build.get(key) or "?"
        if shown(build_a) != shown(build_b):
            lines.append(f"builds differ in {what}: A {shown(build_a) or '?'}, B {shown(build_b) or '?'}")
    return lines


def load_run(where: Path) -> Run:
    """A results.json file, or a report folder holding one."""
    try:
        results = read(where)
    except ResultsError as error:
        raise DiffError(str(error)) from None
    tests: dict[str, RunResult] = {}
    for entry in results.tests:
        result = RunResult.from_json(entry)
        if result.id in tests:
            raise DiffError(
                f"{results.path}: test {result.id} is there twice (a merge of several GPUs?): diff single runs"
            )
        tests[result.id] = result
    return Run(results.path, results.environment, tests, results.complete, unstartable(results.document))


@dataclass(frozen=True)
class Change:
    group: str
    id: str
    a: RunResult | None
    b: RunResult | None

    @property
    def either(self) -> RunResult:
        return self.b or self.a

    def to_json(self) -> dict:
        def side(r: RunResult | None) -> dict | None:
            return None if r is None else {"status": r.status, "verdict": r.verdict, "message": r.message}

        return {
            "group": self.group,
            "id": self.id,
            "rule": self.either.rule,
            "section": self.either.section,
            "a": side(self.a),
            "b": side(self.b),
        }


def classify(a: RunResult | None, b: RunResult | None) -> str | None:
    """The group of one test's change, None when nothing changed."""
    if a is None:
        return "only_b"
    if b is None:
        return "only_a"
    if a.status == b.status:
        return None if a.verdict == b.verdict else "verdict"
    if a.status == "pass" and b.status in FAILING:
        return "regression"
    if a.status in FAILING and b.status == "pass":
        return "fix"
    if {a.status, b.status} == {"pass", "skip"} and (a if a.status == "skip" else b).message.startswith(INCONCLUSIVE):
        return "inconclusive"
    return "status"


@dataclass
class Diff:
    a: Run
    b: Run
    changes: list[Change] = field(default_factory=list)
    common: int = 0
    in_a: int = 0  # tests compared (those the patterns choose), in each run
    in_b: int = 0

    def group(self, name: str) -> list[Change]:
        return [change for change in self.changes if change.group == name]

    @property
    def counts(self) -> dict[str, int]:
        counted = Counter(change.group for change in self.changes)
        return {name: counted.get(name, 0) for name in GROUPS}


def compare(a: Run, b: Run, patterns: list[str] | None = None) -> Diff:
    """Every difference between the runs, in test id order; with `patterns`, only tests whose id or rule matches."""

    def chosen(result: RunResult) -> bool:
        return not patterns or any(
            fnmatch.fnmatchcase(result.id, p) or fnmatch.fnmatchcase(result.rule or "", p) for p in patterns
        )

    ids_a = {i for i, r in a.tests.items() if chosen(r)}
    ids_b = {i for i, r in b.tests.items() if chosen(r)}
    diff = Diff(a, b, in_a=len(ids_a), in_b=len(ids_b))
    ids = sorted(ids_a | ids_b)
    for test_id in ids:
        before, after = a.tests.get(test_id), b.tests.get(test_id)
        if before is not None and after is not None:
            diff.common += 1
        group = classify(before, after)
        if group is not None:
            diff.changes.append(Change(group, test_id, before, after))
    return diff


def _first_lines(text: str) -> list[str]:
    lines = [line for line in printable(text).strip().splitlines() if line.strip()]
    return lines[:MESSAGE_LINES] + (["..."] if len(lines) > MESSAGE_LINES else [])


def report_lines(diff: Diff) -> list[str]:
    """The console report: both runs, then each non-empty group, then one summary line."""
    a, b = diff.a, diff.b
    lines = [f"A: {a.path}", f"   {a.label}", f"B: {b.path}", f"   {b.label}"]
    differences = build_differences(a, b)
    lines += differences or ["builds: the same compiler, toolkit and targets"]
    for name, run in (("A", a), ("B", b)):
        if not run.complete:
            lines.append(f"warning: run {name} is incomplete (it was interrupted): its missing tests are not changes")
        for binary in run.unstartable:
            lines.append(f"warning: run {name}: {binary.line} (missing from {name} for that reason, not removed)")
    lines.append(f"tests: {diff.in_a} in A, {diff.in_b} in B, {diff.common} in both")
    for name in GROUPS:
        changes = diff.group(name)
        if not changes:
            continue
        lines.append("")
        lines.append(f"{TITLES[name]} ({len(changes)}):")
        if name in ("only_a", "only_b"):
            rules = {change.either.rule for change in changes if change.either.rule}
            lines[-1] = f"{TITLES[name]} ({len(changes)} tests of {len(rules)} rules):"
        for change in changes:
            lines.extend(_change_lines(name, change))
    counts = diff.counts
    lines.append("")
    lines.append(
        "summary: "
        + ", ".join(
            f"{counts[n]} {label}"
            for n, label in (
                ("regression", "regressions"),
                ("fix", "fixes"),
                ("status", "status changes"),
                ("inconclusive", "inconclusive"),
                ("verdict", "verdict changes"),
                ("only_a", "only in A"),
                ("only_b", "only in B"),
            )
        )
    )
    return lines


def _change_lines(group: str, change: Change) -> list[str]:
    a, b, one = change.a, change.b, change.either
    where = f"[{one.section}]" if one.section else ""
    if group in ("only_a", "only_b"):
        return [f"  {one.shown_status:8} {change.id}  {where}".rstrip()]
    if group == "verdict":
        head = f"  {b.shown_status}: {a.verdict} -> {b.verdict}"
    else:
        head = f"  {a.shown_status} -> {b.shown_status}"
    lines = [f"{head:24} {change.id}  {where}".rstrip()]
    # What B says about it: why it fails or skips now.
    if group in ("regression", "status", "inconclusive", "verdict") and b.message:
        lines.extend(
            f"{'':27}B: {line}" if i == 0 else f"{'':30}{line}" for i, line in enumerate(_first_lines(b.message))
        )
    if group == "fix" and a.message:
        lines.extend(
            f"{'':27}A: {line}" if i == 0 else f"{'':30}{line}" for i, line in enumerate(_first_lines(a.message))
        )
    return lines


def exit_code(diff: Diff, fail_on: str) -> int:
    if fail_on == "never":
        return EXIT_OK
    if fail_on == "changes":
        return EXIT_DIFFERENT if any(change.group != "inconclusive" for change in diff.changes) else EXIT_OK
    return EXIT_DIFFERENT if diff.group("regression") else EXIT_OK
