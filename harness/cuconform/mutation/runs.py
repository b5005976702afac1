"""The harness runs of a campaign: `scripts/conformance run --no-build` over a build folder, as a user would run it,
its console into a log file beside its report folder."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from cuconform.durations import KEEP_ENV
from cuconform.environment import REPO
from cuconform.journal import JOURNAL
from cuconform.mutation.plan import Plan
from cuconform.results_file import ResultsError, read

CONFORMANCE = REPO / "scripts" / "conformance"
LOG_TAIL_LINES = 3


@dataclass(frozen=True)
class HarnessRun:
    """One `scripts/conformance run` of some areas of a build folder."""

    document: dict | None  # its results.json; None when it wrote none (the run could not be made)
    code: int
    log: Path

    @property
    def usable(self) -> bool:
        return self.document is not None and self.document.get("complete", True) is not False

    def why_not(self) -> str:
        """The last lines of the run's log: why it could not be used."""
        try:
            lines = [line for line in self.log.read_text(errors="replace").splitlines() if line.strip()]
        except OSError:
            lines = []
        what = "the run stopped before it finished" if self.document is not None else f"exit code {self.code}"
        return f"{what}: " + " | ".join(lines[-LOG_TAIL_LINES:]) if lines else what


# (build folder, areas, report folder, --rule patterns: none, every test of the areas) -> the run. A run that was cut
# (the baseline's, or a batch's in its overlay: partial_run) is asked with resume=True and goes on where it stopped.
# The mutants' runs are asked with fail_fast=True (--fail-fast): each binary stops at its first unexpected result;
# and with exclude= (--exclude-rule patterns) the tests that failed at baseline, so that a binary does not stop at
# one of them. A resumed mutant run is safe: its journal keeps the overlay, binaries, --rule and --exclude-rule
# patterns, and the overlay's binaries are kept until the batch is recorded (batch_state.py); a binary that failed
# before the cut keeps that failure (its kill) and, the run not knowing it, runs its other tests again: time, never
# another verdict.
Harness = Callable[..., HarnessRun]


def partial_run(output: Path) -> bool:
    """Whether `output` is a harness run that was cut and can go on (`scripts/conformance run --resume`): killed, it
    left <output>.partial/journal.jsonl; stopped (Ctrl-C, SIGTERM: a campaign cut by `timeout -s INT`), it wrote
    what finished into <output>/, its journal and a results.json marked incomplete."""
    if (output.with_name(output.name + ".partial") / JOURNAL).exists():
        return True
    if not (output / JOURNAL).exists():
        return False
    try:
        return read(output).document.get("complete", True) is False
    except ResultsError:
        return True


def subprocess_harness(plan: Plan) -> Harness:
    """Runs `scripts/conformance run --no-build` over an existing build folder, its output into a log file."""

    def run(
        build_dir: Path,
        areas: Sequence[str],
        output: Path,
        rules: Sequence[str] = (),
        resume: bool = False,
        fail_fast: bool = False,
        exclude: Sequence[str] = (),
    ) -> HarnessRun:
        if resume and partial_run(output):  # the tests it had not finished, with the options it was begun with
            command = [
                sys.executable,
                str(CONFORMANCE),
                "run",
                "--resume",
                str(output),
                "--timeout",
                f"{plan.timeout:g}",
                "--progress-every",
                "0",
            ]
            if plan.jobs:
                command += ["--jobs", str(plan.jobs)]
            if fail_fast:  # how to run, not which tests: the journal does not keep it
                command.append("--fail-fast")
        else:
            for stale in (output, output.with_name(output.name + ".partial")):
                shutil.rmtree(stale, ignore_errors=True)
            command = [
                sys.executable,
                str(CONFORMANCE),
                "run",
                "--no-build",
                "--build-dir",
                str(build_dir),
                "--area",
                ",".join(areas),
                "--output",
                str(output),
                "--timeout",
                f"{plan.timeout:g}",
                "--profile",
                plan.profile,
                "--expectations",
                str(plan.expectations),
                "--progress-every",
                "0",
            ]
            if plan.jobs:
                command += ["--jobs", str(plan.jobs)]
            for rule in rules:
                command += ["--rule", rule]
            for rule in exclude:
                command += ["--exclude-rule", rule]
            if fail_fast:  # a mutant's binary stops at its first failure: one kills it, the rest is time
                command.append("--fail-fast")
        log = output.with_name(output.name + ".log")
        log.parent.mkdir(parents=True, exist_ok=True)
        with open(log, "a" if resume else "w", encoding="utf-8") as stream:
            stream.write(" ".join(command) + "\n")
            stream.flush()
            # A mutant's (or the padded capture build's) timings say nothing of what the suite's tests cost.
            process = subprocess.Popen(
                command,
                stdout=stream,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                cwd=REPO,
                env=dict(os.environ, **{KEEP_ENV: "0"}),
            )
            try:
                code = process.wait()
            except KeyboardInterrupt:  # SIGTERM stops a harness run as Ctrl-C does: its test processes end too
                process.terminate()
                process.wait()
                raise
        try:
            document = read(output).document
        except ResultsError:
            document = None
        return HarnessRun(document, code, log)

    return run
