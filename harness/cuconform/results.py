"""One selected test of a run: its case, its expectation, its attempts and the verdict they add up to.

A record is filled by the scheduler's threads and read by pytest's main thread, which waits for `done`.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from cuconform.catalog import TestCase
from cuconform.expectations import Expectation
from cuconform.gtest import Attempt
from cuconform.status import Expected, Verdict, classify, final_verdict


@dataclass
class TestRecord:
    __test__ = False  # not a test class, whatever pytest thinks of its name
    case: TestCase
    expectation: Expectation | None = None
    nodeid: str = ""
    resolved: bool = False  # whether `expectation` has been looked up (a run may start before the device is known)
    attempts: list[Attempt] = field(default_factory=list)
    restored: bool = False  # finished in an earlier part of this run (--resume): its attempts come from the journal
    _done: threading.Event = field(default_factory=threading.Event, repr=False)
    _verdict: Verdict | None = field(default=None, repr=False)

    @property
    def expected(self) -> Expected | None:
        return self.expectation.status if self.expectation else None

    @property
    def expected_status(self) -> str | None:
        """The expected status as the reports spell it ('fail', ...), None without an entry."""
        return self.expectation.status.value if self.expectation else None

    @property
    def runs(self) -> bool:
        """Whether the harness runs it: an expected 'skip' (a known hang, say) is not run here."""
        return self.expected is not Expected.SKIP

    def unexpected(self, attempt: Attempt) -> bool:
        return classify(attempt.status, self.expected).unexpected

    def add(self, attempt: Attempt) -> None:
        self.attempts.append(attempt)

    def finish(self) -> None:
        self._done.set()

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        return self._done.wait(timeout)

    # --- what the run concludes ------------------------------------------------------------------------------

    @property
    def first(self) -> Attempt | None:
        return self.attempts[0] if self.attempts else None

    @property
    def status(self) -> str | None:
        """The raw status of the first attempt ('pass', 'fail', ...), None when it never ran."""
        first = self.first
        return first.status.value if first and first.status else None

    @property
    def verdict(self) -> Verdict:
        if self._verdict is not None:
            return self._verdict
        if not self.runs:
            verdict = Verdict.SKIP
        else:
            verdict = final_verdict([attempt.status for attempt in self.attempts], self.expected)
        if self.done:
            self._verdict = verdict  # final once the record is done
        return verdict

    @property
    def duration(self) -> float:
        return self.first.duration if self.first else 0.0

    @property
    def message(self) -> str:
        if not self.runs:
            return self.expectation.reason
        first = self.first
        return first.message if first else "the harness never ran it"

    @property
    def output(self) -> str:
        return self.first.output if self.first else ""

    @property
    def metrics(self) -> dict[str, object]:
        metrics: dict[str, object] = {}
        for attempt in self.attempts:
            metrics.update(attempt.metrics)
        return metrics

    def to_json(self) -> dict[str, object]:
        case, expectation = self.case, self.expectation
        return {
            "id": case.test_id,
            "rule": case.rule_id,
            "section": case.section,
            "statement": case.statement,
            "area": case.area,
            "param": case.param,
            **({"compiler": case.compiler, "compiler_version": case.compiler_version} if case.compiler else {}),
            "gpu": case.gpu,
            "exclusive": case.exclusive,
            "source": f"{case.file}:{case.line}" if case.file else None,
            "nodeid": self.nodeid,
            "status": self.status,
            "expected": None
            if expectation is None
            else {
                "status": expectation.status.value,
                "reason": expectation.reason,
                "evidence": expectation.evidence,
                "entry": expectation.where,
                **({"draft": True} if expectation.draft else {}),  # accepted without review (triage.py)
            },
            "verdict": self.verdict.value,
            "duration": round(self.duration, 6),
            "message": self.message,
            "output": self.output,
            "metrics": self.metrics,
            "attempts": [
                {
                    "status": a.status.value if a.status else None,
                    "duration": round(a.duration, 6),
                    "message": a.message,
                    **({"output": a.output} if index else {}),
                    **({"gpus": a.gpus} if a.gpus is not None else {}),
                }
                for index, a in enumerate(self.attempts)
            ],
        }
