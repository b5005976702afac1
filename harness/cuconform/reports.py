"""The reports of a run (reports/README.md): results.json, the JUnit file pytest writes, report.html and summary.md
(made from results.json's document by html_report.py and summary.py), the console summary.

Everything is written to a staging folder and moved into place at the end, so an interrupted run never leaves a
half-written report.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from cuconform import cc_coverage, critical_path, overview
from cuconform.expectations import Expectation
from cuconform.files import printable
from cuconform.html_report import write_html
from cuconform.overview import gpu_text
from cuconform.prerender import Prerendered
from cuconform.results import TestRecord
from cuconform.results_file import FORMAT_VERSION, RESULTS, write_results
from cuconform.status import Verdict
from cuconform.summary import write_summary

JUNIT = "junit.xml"
HTML = "report.html"
SUMMARY = "summary.md"
SLOWEST = 10
SLOWEST_AREAS = 5


@dataclass(frozen=True)
class ReportPart:
    """What a feature adds to the readable reports of a results.json that holds its section (a mutation campaign's
    `mutation`): rendered by the feature, handed to the core as pytest's plugins hand `user_properties` to junitxml,
    so that the core's report writers never import a feature. Each returns nothing for a document without its
    section.

        html(results) -> str             a <section> of report.html, every text escaped (html_report.text/attr)
        markdown(results) -> list[str]   lines of summary.md, every text through summary.cell
    """

    html: Callable[[dict], str]
    markdown: Callable[[dict], list[str]]


class ReportFolder:
    """reports/<run>/: files are written into <run>.partial/ beside it, which becomes <run>/ at the end.

    An interrupted run leaves only the .partial folder: a report folder never holds a half-written file.
    """

    def __init__(self, parent: Path | None, exact: Path | None, name: str):
        if exact is not None:
            self.final = exact.resolve()
        else:
            parent = parent.resolve()
            self.final, counter = parent / name, 2
            while self.final.exists() or self.final.with_name(self.final.name + ".partial").exists():
                self.final, counter = parent / f"{name}-{counter}", counter + 1
        self.staging = self.final.with_name(self.final.name + ".partial")

    @property
    def name(self) -> str:
        return self.final.name

    def staged(self, name: str) -> Path:
        return self.staging / name

    def publish(self) -> Path:
        """Moves the staged files into the final folder (one rename when it does not exist yet)."""
        self.staging.mkdir(parents=True, exist_ok=True)
        if not self.final.exists():
            os.rename(self.staging, self.final)
            return self.final
        for item in self.staging.iterdir():
            os.replace(item, self.final / item.name)
        shutil.rmtree(self.staging, ignore_errors=True)
        return self.final

    def discard(self) -> None:
        shutil.rmtree(self.staging, ignore_errors=True)


def counts(records: list[TestRecord]) -> dict[str, int]:
    counted = Counter(record.verdict.value for record in records)
    return {verdict.value: counted.get(verdict.value, 0) for verdict in Verdict}


def results_document(
    environment: dict,
    records: list[TestRecord],
    stale: list[Expectation],
    complete: bool,
    selection: dict | None = None,
) -> dict:
    return {
        "format": FORMAT_VERSION,
        "environment": environment,
        "complete": complete,
        "selection": selection,
        "counts": counts(records),
        "unexpected": sum(1 for record in records if record.verdict.unexpected),
        "stale_expectations": [stale_json(entry) for entry in stale],
        "tests": [record.to_json() for record in records],
    }


def write_documents(
    folder: Path, document: dict, parts: Sequence[ReportPart] = (), made: Prerendered | None = None
) -> None:
    """Every report made from a results document, into `folder` (a run's staging folder, a merge's output).

    The one place where they are written: `scripts/conformance run` and `scripts/conformance merge` both end here,
    so a new report (an HTML page, a summary.md) is added once, below, and both commands make it. (junit.xml is
    pytest's for a run and junit.py's for a merge: it is written beside these.) `made`: the tests' parts a run
    made as they finished (prerender.py)."""
    made = made or Prerendered()
    write_results(folder / RESULTS, document, made.line)
    write_readable(document, folder, parts, made)


def stale_json(entry: Expectation) -> dict:
    return {
        "entry": entry.where,
        "file": str(entry.path),
        "line": entry.line,
        "tests": list(entry.tests),
        "status": entry.status.value,
        "reason": entry.reason,
    }


def write_readable(
    document: dict, folder: Path, parts: Sequence[ReportPart] = (), made: Prerendered | None = None
) -> list[Path]:
    """report.html and summary.md from a results.json document and the features' parts, into `folder`: at the end
    of a run, and by `scripts/conformance report` for an existing (or merged) results.json. A report that cannot be
    made is a warning on stderr, never the loss of the run's results."""
    written = []
    rows = (made or Prerendered()).row
    for name, write, render in (
        (HTML, lambda *arguments: write_html(*arguments, rows), lambda part: part.html(document)),
        (SUMMARY, write_summary, lambda part: part.markdown(document)),
    ):
        try:
            written.append(write(document, folder / name, [render(part) for part in parts]))
        except Exception as error:  # noqa: BLE001 - results.json and junit.xml are written already
            print(f"cuconform: could not write {folder / name}: {type(error).__name__}: {error}", file=sys.stderr)
    return written


def summary_lines(
    records: list[TestRecord],
    stale: list[Expectation],
    environment: dict,
    where: Path | None,
    unfinished: int = 0,
    phases: dict | None = None,
) -> list[str]:
    """The console summary: counts by verdict, every unexpected result, flakes, stale entries, the slowest tests
    and areas, where the reports are; `unfinished` tests (a run cut short) and how to resume it."""
    lines = []
    devices = environment.get("devices", {}).get("devices") or []
    gpu = gpu_text(environment)
    build = environment.get("build", {})
    toolkit = f" (CUDA toolkit {build['cuda_toolkit']})" if build.get("cuda_toolkit") else ""
    lines.append(
        f"GPU: {gpu}; build: {build.get('compiler', '?')} {build.get('compiler_version', '')}".rstrip() + toolkit
    )
    if len(devices) != environment.get("visible_gpus", len(devices)) and environment.get("jobs", 1) > 1:
        lines.append(
            f"warning: CUDA sees {len(devices)} GPU(s), the driver lists {environment['visible_gpus']}: "
            "the workers were sized for the driver's count (set CUDA_VISIBLE_DEVICES to choose)"
        )
    note = overview.math_reference_note(environment, (r.case.test_id for r in records))
    if note:
        lines.append(note)
    chain = " -> ".join(Path(p).stem for p in environment.get("expectation_chain", []))
    lines.append("expectations: " + (chain or "none"))
    chosen = environment.get("chosen")
    if chosen:
        lines.append(
            f"chosen: {chosen['tests']} of the {chosen['listed']} tests the binaries list, by {' '.join(chosen['by'])}"
        )
    skipped = ((r.case.test_id, r.message) for r in records if r.status == "skip")
    lines += cc_coverage.lines(cc_coverage.section(environment, skipped))
    counted = counts(records)
    lines.append("verdicts: " + ", ".join(f"{n} {v}" for v, n in counted.items() if n) if records else "verdicts: none")
    spread = Counter(r.attempts[0].gpus for r in records if r.attempts and r.attempts[0].gpus is not None)
    if spread:
        lines.append(
            "GPUs (CUDA_VISIBLE_DEVICES of the process that ran each test): "
            + ", ".join(f"{gpus}: {n} tests" for gpus, n in sorted(spread.items()))
        )
    cached = sum(1 for r in records if r.metrics.get("compile_cache") == "hit")
    if cached:
        lines.append(
            f"compile cache: {cached} compile-time rule(s) judged from the compiler's earlier output for the "
            "same case, command and toolchain (--no-compile-cache compiles them again)"
        )

    unexpected = [r for r in records if r.verdict.unexpected]
    if unexpected:
        lines.append(f"unexpected ({len(unexpected)}):")
        for record in unexpected:
            lines.append(f"  {record.verdict.value.upper():8} {record.case.test_id}  [{record.case.section}]")
            message = printable(record.message).strip()
            if record.verdict is Verdict.XPASS:
                message = f"expected {record.expected_status} ({record.expectation.where}) but it passed"
            for text in message.splitlines()[:6]:
                lines.append(f"           {text}")
    flakes = [r for r in records if r.verdict is Verdict.FLAKE]
    if flakes:
        lines.append(f"flakes ({len(flakes)}):")
        lines.extend(
            f"  {r.case.test_id}: " + " then ".join(a.status.value if a.status else "none" for a in r.attempts)
            for r in flakes
        )
    lines += draft_lines(records, bool(environment.get("strict")))
    if stale:
        lines.append(f"stale expectation entries ({len(stale)}), matching no test:")
        lines.extend(f"  {entry.where}: {', '.join(entry.tests)}" for entry in stale)
    ran = sorted((r for r in records if r.attempts), key=lambda r: r.duration, reverse=True)[:SLOWEST]
    if ran:
        lines.append(f"slowest {len(ran)}:")
        lines.extend(f"  {r.duration * 1000:10.3f} ms  {r.case.test_id}" for r in ran)
    areas = slowest_areas(records)
    if len(areas) > 1:
        lines.append(f"slowest areas ({len(areas)} of {len({r.case.area for r in records})}; test time, summed):")
        lines.extend(f"  {seconds:10.3f} s   {area} ({tests} tests)" for area, seconds, tests in areas)
    lines.extend(
        critical_path.describe(
            environment.get("batches") or [],
            phases if phases is not None else environment.get("phases") or {},
            child_processes_of(records),
        )
    )
    if where:
        lines.append(f"reports: {where}/{RESULTS}, {where}/{JUNIT}, {where}/{HTML}, {where}/{SUMMARY}")
    if unfinished:
        lines.append(
            f"incomplete: {unfinished} selected tests did not finish; to run them and keep what finished: "
            f"scripts/conformance run --resume {where or '<report folder>'}"
        )
    return lines


def child_processes_of(records: list[TestRecord]) -> int:
    """The child processes the rules started: their metric child_processes (child_process.cpp), summed."""
    counts = (record.metrics.get("child_processes") for record in records)
    return sum(int(count) for count in counts if isinstance(count, (int, float)) and not isinstance(count, bool))


def draft_lines(records: list[TestRecord], strict: bool) -> list[str]:
    """The tests that draft entries judged (overview.accepted_without_review), by entry; with --strict, that the
    run fails for them."""
    by_entry: dict[str, list[TestRecord]] = {}
    for record in records:
        if record.expectation is not None and record.expectation.draft and not record.verdict.unexpected:
            by_entry.setdefault(record.expectation.where, []).append(record)
    if not by_entry:
        return []
    tests = sum(map(len, by_entry.values()))
    entries = f"{len(by_entry)} draft entr{'y' if len(by_entry) == 1 else 'ies'}"
    lines = [
        f"{overview.ACCEPTED_WITHOUT_REVIEW}: {tests} test{'s' * (tests != 1)}, by {entries} {overview.DRAFT_HINT}:"
    ]
    for where, judged in by_entry.items():
        verdicts = Counter(record.verdict.value for record in judged)
        lines.append(
            f"  {where}: {', '.join(judged[0].expectation.tests)}  ("
            + ", ".join(f"{n} {verdict}" for verdict, n in verdicts.items())
            + ")"
        )
    if strict:
        lines.append(
            f"strict: {tests} test{'s were' if tests != 1 else ' was'} judged by draft entries, so the run "
            "fails (--strict)"
        )
    return lines


def slowest_areas(records: list[TestRecord]) -> list[tuple[str, float, int]]:
    """(area, seconds of its tests' attempts, tests) of the areas that took longest, slowest first."""
    seconds: Counter[str] = Counter()
    tests: Counter[str] = Counter()
    for record in records:
        seconds[record.case.area] += sum(attempt.duration for attempt in record.attempts)
        tests[record.case.area] += 1
    ranked = sorted(tests, key=lambda area: (-seconds[area], area))[:SLOWEST_AREAS]
    return [(area, seconds[area], tests[area]) for area in ranked]
