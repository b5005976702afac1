"""What one mutant did to one area, and the area's mutation score (README.md, "Measuring the suite's sensitivity").

A mutant is one operator applied to every object of one area's binary. Its status joins what the rebuild said
(nothing changed, ptxas rejected it), what equivalent.toml says (no observable effect) and, for a mutant that ran,
the verdicts of the area's tests in the mutant run against their verdicts in the baseline run:

    killed          a test that passed at baseline failed, crashed, timed out or never reported under the mutant
    survived        every test that passed at baseline passed again
    not applicable  the operator changed no object of the area
    invalid         ptxas rejected every object it changed (or the mutant does not fit the binary)
    equivalent      equivalent.toml says the change has no observable effect, and why
    error           the harness could not run the mutant binary at all (its log says why)

Only a test whose baseline verdict is `pass` (and which no expectation entry calls flaky) can kill: an xfail, a
skip, a flake or a failure at baseline says nothing about a mutant. Score = killed / (killed + survived), i.e.
killed / (applicable - equivalent - invalid - error).
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
    judges: int = 0  # how many tests could have (passed at baseline)


def can_kill(test: dict) -> bool:
    """Whether a baseline test's verdict lets it judge mutants: it passed, and no entry expects it to flake."""
    expected = test.get("expected") or {}
    return test.get("verdict") == "pass" and expected.get("status") != "flake"


def judges_of(baseline_tests: Iterable[dict], area: str) -> list[str]:
    """The ids of the area's tests that can kill a mutant, in the baseline run's order."""
    return [test["id"] for test in baseline_tests if area_of(test) == area and can_kill(test)]


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
