"""What one mutant did to one area, and the area's mutation score (README.md, "Measuring the suite's sensitivity").

A mutant is one operator applied to every object of one area's binary. Its status joins what the rebuild said
(nothing changed, ptxas rejected it), what equivalent.toml says (no observable effect) and, for a mutant that ran,
the verdicts of the area's tests in the mutant run against their verdicts in the baseline run:

    killed          a judge (below) failed, crashed, timed out or never reported under the mutant
    survived        every judge passed, or skipped, again
    not applicable  the operator changed no object of the area (a host-side one: the area made no call it wraps, or
                    it changed none of the calls made)
    invalid         ptxas rejected every object it changed (or the mutant does not fit the binary)
    equivalent      equivalent.toml says the change has no observable effect, and why
    error           the harness could not run the mutant binary at all (its log says why)

The judges are the tests that did not fail at baseline and that no expectation entry judges (can_kill):

    pass    the test passed (an entry that calls it flaky takes it out: its failure says nothing)
    skip    the test ran and skipped itself: a failure under the mutant is one the suite reports and the baseline did
            not have, so the bug is noticed. Such a failure does not come from the skip's own cause: a test that skips
            for a missing prerequisite (two GPUs, CC 10.0, the MPFR reference, a compiler without a feature) checks it
            before it does anything, on the host, and a PTX mutant changes none of that: it skips again (a runtime
            mutant that falsifies what the check reads, the driver's version say, makes the test run and fail for that
            lie, which the suite should notice). A litmus test that skips as "not observable on this GPU" has run its
            fenced case and its unfenced sibling and found nothing wrong but a sibling without weak outcomes; under the
            mutant it fails only for an engine error (a count, a role that never ran, partners that did not meet) or an
            outcome that the fence or the ordering forbids, the mutant's effect either way (campaign 2:
            litmus@atom-add-to-exch failed such a test with "engine error: ... classified 3 instances, ran 486912");
            should the sibling observe this time, it passes. A skip that an entry orders (a known hang, not run at
            all), or one whose failure an entry expects, cannot judge.

An xfail, a flake or a failure (fail, crash, timeout, missing) at baseline says nothing about a mutant. The flakes and
failures are left out of the mutants' runs (failures_of, --exclude-rule), so that --fail-fast does not stop a binary
at them before its judges have run (an xfail fails as expected and stops nothing).

Score = killed / (killed + survived), i.e. killed / (applicable - equivalent - invalid - error).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from cuconform.overview import area_of

# The verdicts of a mutant run that kill, and the raw statuses of a first attempt that do (a test that failed and
# then passed when its batch ran again is a flake to the harness, but it did notice the mutant).
KILLING_VERDICTS = frozenset({"fail", "crash", "timeout", "missing"})
KILLING_STATUSES = frozenset({"fail", "crash", "timeout"})
JUDGING_VERDICTS = frozenset({"pass", "skip"})  # at baseline, without an expectation entry
# Baseline verdicts whose tests the mutants' runs leave out: a failure there would stop the binary under --fail-fast.
# (An xfail fails as expected and an xpass is no failure: neither stops it.)
BASELINE_FAILURES = frozenset({"fail", "crash", "timeout", "missing", "flake"})


class MutantStatus(enum.Enum):
    KILLED = "killed"
    SURVIVED = "survived"
    NOT_APPLICABLE = "not applicable"
    INVALID = "invalid"
    EQUIVALENT = "equivalent"
    ERROR = "error"


STATUSES = [status.value for status in MutantStatus]
SCORED = frozenset({MutantStatus.KILLED.value, MutantStatus.SURVIVED.value})


@dataclass(frozen=True)
class Judgement:
    """How the tests of one area judged one mutant that ran."""

    status: MutantStatus
    killed_by: str | None = None  # the first killing test, in the run's order
    killing_status: str | None = None  # how it went: 'fail', 'crash', 'timeout', 'missing', 'fail, then pass'
    killers: int = 0  # how many tests killed it
    judges: int = 0  # how many tests could have (passed or skipped at baseline: can_kill)


def can_kill(test: dict) -> bool:
    """Whether a baseline test's verdict lets it judge mutants: it passed or skipped itself, and no expectation entry
    judges it (a passing test's entry can only be one that expects it to flake; a skipping test's entry either skips
    it unrun or expects the failure that a mutant would cause)."""
    return test.get("verdict") in JUDGING_VERDICTS and not (test.get("expected") or {}).get("status")


def judges_of(baseline_tests: Iterable[dict], area: str) -> list[str]:
    """The ids of the area's tests that can kill a mutant, in the baseline run's order."""
    return [test["id"] for test in baseline_tests if area_of(test) == area and can_kill(test)]


def failures_of(baseline_tests: Iterable[dict], area: str) -> list[str]:
    """The ids of the area's tests that failed at baseline (BASELINE_FAILURES), in the baseline run's order: the
    mutants' runs leave them out (--exclude-rule)."""
    return [test["id"] for test in baseline_tests if area_of(test) == area and test.get("verdict") in BASELINE_FAILURES]


def killing_status(test: dict | None) -> str | None:
    """How a judge's mutant result kills, or None when it does not: no result at all is 'missing'."""
    if test is None:
        return "missing"
    first = test.get("status")
    verdict = test.get("verdict")
    if first in KILLING_STATUSES:
        return first if verdict != "flake" else f"{first}, then pass"
    if verdict in KILLING_VERDICTS:
        return verdict
    return None


def judge(judges: list[str], mutant_tests: dict[str, dict]) -> Judgement:
    """The mutant's status in one area: `judges` (judges_of) against the mutant run's tests by id."""
    killers = [(test_id, how) for test_id in judges if (how := killing_status(mutant_tests.get(test_id))) is not None]
    if killers:
        first, how = killers[0]
        return Judgement(MutantStatus.KILLED, first, how, len(killers), len(judges))
    return Judgement(MutantStatus.SURVIVED, judges=len(judges))


def counts(statuses: Iterable[str]) -> dict[str, object]:
    """Mutants by status, with `applicable` (every status but not applicable) and `score` (None: nothing scored)."""
    counted = dict.fromkeys(STATUSES, 0)
    for status in statuses:
        counted[status] += 1
    applicable = sum(n for status, n in counted.items() if status != MutantStatus.NOT_APPLICABLE.value)
    scored = counted[MutantStatus.KILLED.value] + counted[MutantStatus.SURVIVED.value]
    return {
        **counted,
        "applicable": applicable,
        "score": round(counted[MutantStatus.KILLED.value] / scored, 4) if scored else None,
    }


def score_text(score: float | None) -> str:
    return "-" if score is None else f"{score * 100:.1f}%"


def sites_text(count: object) -> str:
    return f"{count} site" if count == 1 else f"{count} sites"
