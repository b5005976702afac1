"""summary.md: a short Markdown summary of a run for a CI job page (reports/README.md, "summary.md").

    write_summary(results, path)    results: the results.json document

On GitHub Actions: `cat reports/<run>/summary.md >> "$GITHUB_STEP_SUMMARY"`. It says what ran where, the counts by
verdict, the unexpected results, the known findings, flakes, stale entries and the slowest areas; long lists are cut
at MAX_ROWS (report.html has everything). Every text from a test or an expectation entry goes through `cell()`, so
a message with `|`, backticks, newlines, HTML or control characters cannot break a table or the page.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from cuconform import cc_coverage, overview
from cuconform.files import atomic_write
from cuconform.overview import VERDICTS
from cuconform.status import UNEXPECTED_VERDICTS

MAX_ROWS = 20  # of each list
SLOWEST_AREAS = 5
CELL_CHARS = 160  # a message is cut after this many characters

_INVISIBLE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff\ufffe\uffff\ud800-\udfff]"
)
_MARKDOWN = re.compile(r"([\\`*_\[\]|~])")  # emphasis, code, links, tables, strike-through
_BLOCK_START = re.compile(r"[#+=-]|\d+[.)](?=\s|$)")
_HTML = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}  # GitHub renders inline HTML: show it as text instead


def cell(value: object, limit: int = CELL_CHARS) -> str:
    """Text for one line of Markdown or a table cell: one line, at most `limit` characters, control characters as
    \\xNN, Markdown and HTML characters escaped."""
    string = re.sub(r"[\r\n\t]+", " ", str(value)).strip()
    if len(string) > limit:
        string = string[: limit - 1].rstrip() + "…"
    string = _INVISIBLE.sub(
        lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}", string
    )
    string = _MARKDOWN.sub(r"\\\1", string)
    start = _BLOCK_START.match(string)
    if start:  # not a heading, list item or setext underline where it starts a line: "\# x", "\- x", "1\. x"
        marker = start.group()
        string = f"{marker[:-1]}\\{marker[-1]}{string[start.end() :]}"
    return "".join(_HTML.get(character, character) for character in string)


def table(header: list[str], rows: list[list[str]], align: str = "---") -> list[str]:
    return [
        "| " + " | ".join(header) + " |",
        "|" + "|".join(f" {align} " for _ in header) + "|",
        *("| " + " | ".join(row) + " |" for row in rows),
    ]


def more(total: int) -> list[str]:
    return ["", f"… and {total - MAX_ROWS} more in report.html."] if total > MAX_ROWS else []


def environment_line(results: dict) -> str:
    environment = results.get("environment") or {}
    build = environment.get("build") or {}
    wall = overview.wall_time(environment)
    parts = [
        overview.gpu_text(environment),
        f"driver {overview.driver_text(environment)}",
        f"toolkit {build.get('cuda_toolkit') or '-'}",
        overview.compiler_text(environment),
        f"expectations {overview.chain_text(environment)}",
        f"profile {environment.get('profile', '?')}",
        f"wall time {overview.duration_text(wall) if wall is not None else '-'}",
    ]
    return " · ".join(cell(part, 200) for part in parts)


def render_summary(results: dict, parts: Sequence[list[str]] = ()) -> str:
    """summary.md of a results.json document; `parts`: the lines features render for it (reports.ReportPart), shown
    after the verdict counts."""
    counted = overview.counts(results)
    total = sum(counted.values())
    bad = sum(counted[v] for v in UNEXPECTED_VERDICTS)
    run = (results.get("environment") or {}).get("run", "run")
    outcome = f"**{bad} unexpected** of {total:,} tests" if bad else f"nothing unexpected in {total:,} tests"
    if results.get("complete") is False:
        outcome += " (incomplete: the run stopped early)"
    not_run = overview.unstartable(results)
    if not_run:  # never a clean run: the tests of these binaries are not in the counts
        outcome = f"**{overview.unstartable_text(len(not_run))}**; {outcome}"
    lines = [f"### cuconform {cell(run)}: {outcome}", "", environment_line(results), ""]
    if not_run:
        lines += [f"**Not run:** {cell(overview.NOT_RUN_HINT, 300)}", ""]
        lines += [f"- {cell(binary.line, 600)}" for binary in not_run] + [""]
    note = overview.math_reference_note(
        results.get("environment") or {}, (t.get("id") for t in results.get("tests") or [])
    )
    if note:
        lines += [f"**{cell(note, 300)}**", ""]
    lines += table(VERDICTS, [[f"{counted[v]:,}" for v in VERDICTS]], "---:")
    for part in parts:
        lines += part

    unexpected = overview.unexpected(results)
    if unexpected:
        lines += ["", f"#### Unexpected ({len(unexpected)})", ""]
        lines += table(
            ["test", "verdict", "message"],
            [
                [cell(t.get("id", "?")), overview.verdict_of(t), cell(overview.failure_line(t))]
                for t in unexpected[:MAX_ROWS]
            ],
        )
        lines += more(len(unexpected))

    coverage = results.get("unknown_cc")
    if isinstance(coverage, dict):
        lines += ["", f"#### {cell(cc_coverage.heading(coverage))}", ""]
        lines += [f"- {cell(line, 600)}" for line in cc_coverage.lines(coverage)]

    drafts = overview.accepted_without_review(results)
    if drafts:
        accepted = sum(len(d.tests) for d in drafts)
        lines += [
            "",
            f"#### Accepted without review: {accepted} tests, {len(drafts)} draft entries",
            "",
            cell(overview.DRAFT_HINT, 300),
            "",
        ]
        rows = []
        for draft in drafts[:MAX_ROWS]:
            first = cell(draft.tests[0].get("id", "?"))
            others = f" (+{len(draft.tests) - 1} more)" if len(draft.tests) > 1 else ""
            rows.append([first + others, cell(draft.entry), cell(draft.status), cell(draft.evidence)])
        lines += table(["test", "entry", "expected", "evidence"], rows) + more(len(drafts))

    findings = overview.findings(results)
    if findings:
        xfails = sum(len(f.tests) for f in findings)
        lines += ["", f"#### Known findings: {xfails} xfail, {len(findings)} expectation entries", ""]
        rows = []
        for finding in findings[:MAX_ROWS]:
            first = cell(finding.tests[0].get("id", "?"))
            others = f" (+{len(finding.tests) - 1} more)" if len(finding.tests) > 1 else ""
            rows.append([first + others, cell(finding.entry), cell(finding.reason)])
        lines += table(["test", "entry", "reason"], rows) + more(len(findings))

    flakes = overview.flakes(results)
    if flakes:
        lines += ["", f"#### Flakes ({len(flakes)})", ""]
        lines += [f"- {cell(t.get('id', '?'))}: {cell(overview.attempts_text(t))}" for t in flakes[:MAX_ROWS]]
        lines += more(len(flakes))

    stale = [entry for entry in results.get("stale_expectations") or [] if isinstance(entry, dict)]
    if stale:
        lines += ["", f"#### Stale expectation entries ({len(stale)}), matching no test", ""]
        lines += [f"- {cell(e.get('entry', '?'))}: {cell(', '.join(e.get('tests') or []))}" for e in stale[:MAX_ROWS]]
        lines += more(len(stale))

    areas = sorted(overview.areas(results), key=lambda area: area.seconds, reverse=True)[:SLOWEST_AREAS]
    if areas:
        lines += ["", "#### Slowest areas", ""]
        lines += table(
            ["area", "tests", "test time", "unexpected"],
            [[cell(a.name), f"{a.total:,}", overview.duration_text(a.seconds), f"{a.unexpected:,}"] for a in areas],
        )
    return "\n".join(lines) + "\n"


def write_summary(results: dict, path: Path, parts: Sequence[list[str]] = ()) -> Path:

    atomic_write(Path(path), render_summary(results, parts))
    return Path(path)
