"""The two result types and the one function that joins them (docs/architecture.md, "Verdicts").

A test binary tells us a raw Status: what the test did. The expectation of the detected compute capability says
what it should do. `classify` joins the two into a Verdict; every pair is decided there and nowhere else.
"""

from __future__ import annotations

import enum
from typing import assert_never


class Status(enum.Enum):
    """What a test did when it ran."""

    PASS = "pass"
    FAIL = "fail"
    CRASH = "crash"
    TIMEOUT = "timeout"
    SKIP = "skip"

    @property
    def failed(self) -> bool:
        return self in (Status.FAIL, Status.CRASH, Status.TIMEOUT)


class Verdict(enum.Enum):
    """What a run concludes about a test once its expectation is applied."""

    PASS = "pass"
    FAIL = "fail"
    CRASH = "crash"
    TIMEOUT = "timeout"
    SKIP = "skip"
    XFAIL = "xfail"
    XPASS = "xpass"
    FLAKE = "flake"
    MISSING = "missing"

    @property
    def unexpected(self) -> bool:
        """A verdict that makes the run fail (exit code 1)."""
        return self in UNEXPECTED


UNEXPECTED = frozenset({Verdict.FAIL, Verdict.CRASH, Verdict.TIMEOUT, Verdict.XPASS, Verdict.MISSING})
# as results.json spells them
UNEXPECTED_VERDICTS = tuple(verdict.value for verdict in Verdict if verdict in UNEXPECTED)


class Expected(enum.Enum):
    """What an expectation entry says a test does on this GPU (its `status`); no entry: it should pass."""

    FAIL = "fail"
    CRASH = "crash"
    TIMEOUT = "timeout"
    FLAKE = "flake"  # fails now and then: a failure is not held against it
    SKIP = "skip"  # do not run it here (a known hang)

    @property
    def failure(self) -> Status | None:
        """The raw status this expectation foresees, for the three that name one."""
        return {Expected.FAIL: Status.FAIL, Expected.CRASH: Status.CRASH, Expected.TIMEOUT: Status.TIMEOUT}.get(self)


def _failure_verdict(status: Status) -> Verdict:
    return {Status.FAIL: Verdict.FAIL, Status.CRASH: Verdict.CRASH, Status.TIMEOUT: Verdict.TIMEOUT}[status]


def classify(status: Status | None, expected: Expected | None) -> Verdict:
    """The verdict of one attempt: its raw status (None: the test never produced a result) against the expected
    status of its expectation entry (None: no entry, the test should pass). Every pair has its case."""
    match expected:
        case Expected.SKIP:
            return Verdict.SKIP  # not run here; the entry gives the reason
        case None | Expected.FAIL | Expected.CRASH | Expected.TIMEOUT | Expected.FLAKE:
            pass
        case _:
            assert_never(expected)
    match status:
        case None:
            return Verdict.MISSING
        case Status.SKIP:
            return Verdict.SKIP
        case Status.PASS:
            return Verdict.XPASS if expected is not None and expected.failure is not None else Verdict.PASS
        case Status.FAIL | Status.CRASH | Status.TIMEOUT:
            if expected is Expected.FLAKE:
                return Verdict.FLAKE
            if expected is not None and expected.failure is status:
                return Verdict.XFAIL
            return _failure_verdict(status)
        case _:
            assert_never(status)


def final_verdict(statuses: list[Status | None], expected: Expected | None) -> Verdict:
    """The verdict over a test's attempts: an unexpected first attempt followed by an expected one is a flake."""
    if not statuses:
        return classify(None, expected)
    first = classify(statuses[0], expected)
    if first.unexpected and len(statuses) > 1 and not classify(statuses[-1], expected).unexpected:
        return Verdict.FLAKE
    return first
