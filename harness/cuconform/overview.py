"""What the readable reports say about a run, taken from its results.json document (reports/README.md): the
environment in a few lines, the counts, the unexpected results, the known findings, flakes and time per area.

report.html (html_report.py) and summary.md (summary.py) render these facts; neither reads the document itself, so
both say the same thing. Every key is read with a default: a document merged from shards, or an older one, may lack
some of them.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import PurePath

from cuconform.status import UNEXPECTED_VERDICTS, Verdict

VERDICTS = [verdict.value for verdict in Verdict]


def tests_of(results: dict) -> list[dict]:
    return [test for test in results.get("tests") or [] if isinstance(test, dict)]


def verdict_of(test: dict) -> str:
    verdict = test.get("verdict")
    return verdict if verdict in VERDICTS else "missing"


def area_of(test: dict) -> str:
    return test.get("area") or str(test.get("id", "?")).split("/", 1)[0]


def counts(results: dict) -> dict[str, int]:
    """Tests by verdict, counted from the tests themselves (the document's own `counts` may predate a merge)."""
    counted = dict.fromkeys(VERDICTS, 0)
    for test in tests_of(results):
        counted[verdict_of(test)] += 1
    return counted


def first_line(text: str | None) -> str:
    for line in (text or "").splitlines():
        if line.strip():
            return line.strip()
    return ""


def failure_lines(test: dict, most: int = 1) -> list[str]:
    """The lines that say what went wrong, at most `most`: GoogleTest's failure block starts with 'file:line:
    Failure', so the lines after it are the ones worth reading; an xpass says which entry is stale."""
    if verdict_of(test) == "xpass":
        expected = test.get("expected") or {}
        return [f"expected {expected.get('status')} ({expected.get('entry')}) but it passed: the entry is stale"]
    lines = [line.strip() for line in (test.get("message") or "").splitlines() if line.strip()]
    if len(lines) > 1 and lines[0].endswith(": Failure"):
        lines = lines[1:]
    return lines[:most]


def failure_line(test: dict) -> str:
    return next(iter(failure_lines(test)), "")


def duration_text(value: float | None) -> str:
    """A duration for people: '25 µs', '0.8 ms', '1.25 s', '3 min 12 s'."""
    if value is None:
        return "-"
    if value < 1e-3:
        return f"{value * 1e6:.0f} µs"
    if value < 1:
        return f"{value * 1e3:.1f} ms"
    if value < 120:
        return f"{value:.2f} s"
    minutes, rest = divmod(round(value), 60)
    if minutes < 120:
        return f"{minutes} min {rest} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min"


def wall_time(environment: dict) -> float | None:
    try:
        started = datetime.fromisoformat(environment["started"])
        ended = datetime.fromisoformat(environment["ended"])
    except (KeyError, TypeError, ValueError):
        return None
    return max((ended - started).total_seconds(), 0.0)


def gpu_text(environment: dict, driver: bool = False) -> str:
    """The run's GPUs as every report names them: 'NVIDIA H100 80GB HBM3 (CC 9.0)', '2 × NVIDIA H100 80GB HBM3
    (CC 9.0)', with ', driver for CUDA 13.0' when `driver`; 'no CUDA device (<why>)' without one."""
    devices = environment.get("devices") or {}
    listed = devices.get("devices") or []
    if not listed:
        return f"no CUDA device ({devices.get('error') or 'not probed'})"
    names: dict[str, int] = {}
    for device in listed:
        name = f"{device.get('name', '?')} (CC {device.get('cc', '?')})"
        names[name] = names.get(name, 0) + 1
    text = ", ".join(name if n == 1 else f"{n} × {name}" for name, n in names.items())
    cuda = devices.get("driver_cuda_version")
    return f"{text}, driver for CUDA {cuda}" if driver and cuda else text


def driver_text(environment: dict) -> str:
    devices = environment.get("devices") or {}
    parts = []
    if devices.get("driver_version"):
        parts.append(str(devices["driver_version"]))
    if devices.get("driver_cuda_version"):
        parts.append(f"supports CUDA {devices['driver_cuda_version']}")
    if not parts:  # no driver answered: the runtime's version alone says nothing about a driver
        return "none (no NVIDIA driver)" if str(devices.get("error", "")).startswith("no NVIDIA driver") else "-"
    if devices.get("runtime_version"):
        parts.append(f"runtime {devices['runtime_version']}")
    return ", ".join(parts)


def math_reference_note(environment: dict, test_ids) -> str | None:
    """One line when the run has math rules and the math suite's exact (MPFR) reference was not found (those rules
    skip then), naming the command that builds it; None otherwise (and for runs recorded before it was noted)."""
    if "math_reference" not in environment or environment["math_reference"]:
        return None
    if not any(str(test_id).split("/", 1)[0].split("-", 1)[0] == "math" for test_id in test_ids):
        return None
    return (
        "math reference missing: libcuconform-mathref.so (MPFR) was not found, so the math rules that need it "
        "skip; build it with: scripts/setup math && scripts/build-math-reference"
    )


def compiler_text(environment: dict) -> str:
    build = environment.get("build") or {}
    if build.get("error") and not build.get("compiler"):
        return str(build["error"])
    text = f"{build.get('compiler', '?')} {build.get('compiler_version', '')}".strip()
    if build.get("host_compiler"):
        text += f", host compiler {build['host_compiler']}"
    return text


def build_text(environment: dict) -> str:
    build = environment.get("build") or {}
    parts = [str(build[key]) for key in ("build_type", "flags") if build.get(key)]
    if build.get("architectures"):
        parts.append(f"arch {build['architectures']}")
    return ", ".join(parts) or "-"


def chain_text(environment: dict, arrow: str = " → ") -> str:
    chain = environment.get("expectation_chain") or []
    return arrow.join(PurePath(str(path)).name for path in chain) or "none"


def environment_rows(results: dict) -> list[tuple[str, str]]:
    """(label, value) for the top of a report, in reading order; values are plain text."""
    environment = results.get("environment") or {}
    build = environment.get("build") or {}
    host = environment.get("host") or {}
    wall = wall_time(environment)
    rows = [
        ("Run", str(environment.get("run", "?"))),
        ("GPU", gpu_text(environment)),
        ("Driver", driver_text(environment)),
        ("CUDA toolkit", str(build.get("cuda_toolkit") or "-")),
        ("Compiler", compiler_text(environment)),
        *(
            [("Math reference", note)]
            if (note := math_reference_note(environment, (t.get("id") for t in results.get("tests") or [])))
            else []
        ),
        ("Build", build_text(environment)),
        ("Expectations", chain_text(environment)),
        (
            "Profile",
            f"{environment.get('profile', '?')}, timeout {environment.get('timeout_s', '?')} s, "
            f"{environment.get('jobs', '?')} GPU job(s), {environment.get('processes', '?')} processes",
        ),
        ("Started", str(environment.get("started", "?"))),
        ("Wall time", duration_text(wall) if wall is not None else "-"),
        (
            "Host",
            ", ".join(str(host[k]) for k in ("name", "system", "machine") if host.get(k))
            + (f", {host['cpus']} CPUs" if host.get("cpus") else "")
            or "-",
        ),
        ("Commit", commit_text(environment)),
        ("Command", " ".join(str(part) for part in environment.get("command") or []) or "-"),
    ]
    return rows


def commit_text(environment: dict) -> str:
    """The suite's commit, and how many of its tracked files the run's checkout had modified."""
    commit = str(environment.get("cuconform_commit") or "-")
    modified = environment.get("cuconform_modified")
    count = modified.get("count") if isinstance(modified, dict) else None
    if isinstance(count, int) and count > 0:
        commit += f" with {count} modified file{'s' if count != 1 else ''} (not committed)"
    return commit


@dataclass
class Finding:
    """The tests of one expectation entry that failed as it records (verdict xfail)."""

    entry: str
    reason: str
    evidence: str
    status: str
    tests: list[dict] = field(default_factory=list)


def is_draft(test: dict) -> bool:
    """Whether the test was judged by a draft entry of scripts/conformance triage, not reviewed yet."""
    expected = test.get("expected")
    return isinstance(expected, dict) and expected.get("draft") is True


def findings(results: dict) -> list[Finding]:
    """The xfail tests grouped by their expectation entry, in the order the run met them; those of draft entries
    are not findings yet (accepted_without_review)."""
    return _by_entry(test for test in tests_of(results) if verdict_of(test) == "xfail" and not is_draft(test))


ACCEPTED_WITHOUT_REVIEW = "accepted without review"
DRAFT_HINT = (
    "written by scripts/conformance triage; to review one, write its reason and delete `draft = true` "
    "(run --strict fails while a draft judges a test)"
)


def accepted_without_review(results: dict) -> list[Finding]:
    """The tests that draft entries judged without making them unexpected (xfail, flake, skip), grouped by entry:
    what every report shows apart from the known findings."""
    return _by_entry(
        test for test in tests_of(results) if is_draft(test) and verdict_of(test) not in UNEXPECTED_VERDICTS
    )


def _by_entry(tests) -> list[Finding]:
    by_entry: dict[str, Finding] = {}
    for test in tests:
        expected = test.get("expected") or {}
        key = str(expected.get("entry") or expected.get("reason") or test.get("id"))
        if key not in by_entry:
            by_entry[key] = Finding(
                str(expected.get("entry") or "?"),
                str(expected.get("reason") or ""),
                str(expected.get("evidence") or ""),
                str(expected.get("status") or "fail"),
            )
        by_entry[key].tests.append(test)
    return list(by_entry.values())


@dataclass(frozen=True)
class Unstartable:
    """A suite binary that did not start on the run's machine (results.json `unstartable`, catalog.BinaryCannotStart):
    its tests were not run, so they are absent from the reports, not passed, and the run failed."""

    binary: str  # cuconform-nvrtc
    area: str  # nvrtc
    line: str  # "cuconform-nvrtc cannot start here, its tests were not run: libnvrtc.so.12: cannot open ..."


NOT_RUN_HINT = (
    "these suite binaries could not start on this machine, so their tests are in no count here (absent, not "
    "passed), and the run fails for it"
)


def unstartable(results: dict) -> list[Unstartable]:
    """The binaries of the run that could not start, each from its line in results.json (the binary's name first)."""
    lines = results.get("unstartable")
    found = []
    for line in lines if isinstance(lines, list) else []:
        binary = str(line).split(" ", 1)[0]
        found.append(Unstartable(binary, binary.removeprefix("cuconform-"), str(line)))
    return found


def unstartable_text(count: int) -> str:
    """'1 binary could not start, its tests were not run' (the outcome line of summary.md and report.html)."""
    one = count == 1
    return f"{count} binar{'y' if one else 'ies'} could not start, {'its' if one else 'their'} tests were not run"


def unexpected(results: dict) -> list[dict]:
    return [test for test in tests_of(results) if verdict_of(test) in UNEXPECTED_VERDICTS]


def flakes(results: dict) -> list[dict]:
    return [test for test in tests_of(results) if verdict_of(test) == "flake"]


def attempts_text(test: dict) -> str:
    return " then ".join(str(attempt.get("status") or "none") for attempt in test.get("attempts") or []) or "-"


@dataclass
class AreaStats:
    name: str
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(VERDICTS, 0))
    seconds: float = 0.0

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def unexpected(self) -> int:
        return sum(self.counts[verdict] for verdict in UNEXPECTED_VERDICTS)


def areas(results: dict) -> list[AreaStats]:
    """Verdict counts and summed test durations per area, areas in name order."""
    stats: dict[str, AreaStats] = defaultdict(lambda: AreaStats(""))
    for test in tests_of(results):
        area = stats[area_of(test)]
        area.name = area_of(test)
        area.counts[verdict_of(test)] += 1
        area.seconds += float(test.get("duration") or 0.0)
    return [stats[name] for name in sorted(stats)]
