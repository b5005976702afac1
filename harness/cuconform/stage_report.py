"""Stage 5 of a run, report: results.json, junit.xml, report.html, summary.md (reports.py writes them all in one
place), the console summary, and the durations the next run's estimate reads.

It takes what the stages before it handed on: the records the run finished, resolve's chain and stale entries,
select's selection, and the facts of the run (`Facts`) that the environment of results.json holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from cuconform import cc_coverage, durations, overview
from cuconform import environment as env
from cuconform.journal import JournalContents
from cuconform.junit import write_junit
from cuconform.options import Settings
from cuconform.prerender import Prerendered
from cuconform.reports import JUNIT, ReportFolder, results_document, summary_lines, write_documents
from cuconform.results import TestRecord
from cuconform.shard import Selection
from cuconform.stage_resolve import Resolved
from cuconform.stage_run import Workers


@dataclass(frozen=True)
class Facts:
    """What the environment of a run's reports says about the run itself."""

    name: str
    started: datetime
    ended: datetime
    command: list[str]
    settings: Settings
    workers: Workers
    early_start: bool
    devices: dict
    cc: str | None
    build: dict
    build_dir: Path
    chain: tuple[str, ...]
    processes: int
    batches: list[dict]
    phases: dict[str, float]
    restored_tests: int
    resumed: JournalContents | None
    chosen: dict | None = None  # {"tests": n, "listed": N, "by": [the options]} when the run left listed tests out


def environment(facts: Facts) -> dict:
    """results.json's `environment` (reports/README.md)."""
    settings = facts.settings
    return {
        "run": facts.name,
        "started": facts.started.isoformat(timespec="seconds"),
        "ended": facts.ended.isoformat(timespec="seconds"),
        "command": facts.command,
        "profile": settings.profile,
        "sanitizer": settings.sanitizer or None,
        "timeout_s": settings.timeout,
        "jobs": facts.workers.jobs,
        "host_jobs": facts.workers.host_jobs,
        "visible_gpus": facts.workers.gpus,
        "early_start": facts.early_start,
        "host": env.host_info(),
        "devices": facts.devices,
        "compute_capability": facts.cc,
        "build": facts.build,
        "math_reference": env.find_math_reference(facts.build_dir),
        "expectation_chain": list(facts.chain),
        "strict": bool(getattr(settings, "strict", False)),  # --strict: a test judged by a draft entry fails the run
        "cuconform_commit": env.git_commit(),
        "cuconform_modified": env.git_modified(),
        "processes": facts.processes,
        "batches": facts.batches,
        "phases": facts.phases,
        **({"chosen": facts.chosen} if facts.chosen else {}),
        **(
            {"resumed": {"restored_tests": facts.restored_tests, "first_started": facts.resumed.header.get("started")}}
            if facts.resumed
            else {}
        ),
    }


def final_records(records: list[TestRecord], reported: list[TestRecord], finished_ids: set[str]) -> list[TestRecord]:
    """The tests the reports hold, in run order: those pytest reported and, when the run was cut short, the others
    that finished too (a worker may be ahead of pytest, which takes results in order)."""
    shown = {id(record) for record in reported}
    return [record for record in records if id(record) in shown or record.case.test_id in finished_ids]


def keep_durations(kept: durations.Durations, records: list[TestRecord], gpu_present: bool) -> None:
    """The durations of the tests this run ran, for the next runs' plans and estimates (a GPU test without a GPU, a
    compile judged from the compile cache, a test that never got going and a restored one say nothing about what
    the test costs)."""
    ran = [
        record
        for record in records
        if record.attempts
        and record.first.status is not None
        and not record.restored
        and record.metrics.get("compile_cache") != "hit"
        and (gpu_present or not record.case.gpu)
    ]
    kept.save(
        {record.case.test_id: record.duration for record in ran},
        {record.case.test_id for record in ran if record.first.opened},
    )


def write(
    folder: ReportFolder,
    environment: dict,
    records: list[TestRecord],
    resolved: Resolved | None,
    selection: Selection | None,
    complete: bool,
    unstartable: list[str] | None = None,
    made: Prerendered | None = None,
) -> Path:
    """Every report of the run into its staging folder, which then becomes the report folder. `unstartable`: one
    line for each binary that did not start on this machine (catalog.BinaryCannotStart), whose tests did not run.
    `made`: the tests' parts of the reports, made as they finished (prerender.py): the end only joins them."""
    made = made or Prerendered()
    stale = list(resolved.stale) if resolved else []
    document = results_document(environment, records, stale, complete, selection.to_json() if selection else None)
    if unstartable:
        document["unstartable"] = unstartable
    coverage = cc_coverage.section(
        environment, ((t["id"], t["message"]) for t in document["tests"] if t["status"] == "skip")
    )
    if coverage:  # a CC new to the suite: what judged it, what spec/ lacks for it
        document["unknown_cc"] = coverage
    write_documents(folder.staging, document, made=made)
    # From the results, not from pytest's junitxml plugin: the same file, without its cost per test (a third of
    # the harness's own time), and complete when pytest stopped early (-x, Ctrl-C).
    write_junit(
        folder.staged(JUNIT),
        [("cuconform", environment, document["tests"])],
        overview.unstartable(document),
        made.testcase,
    )
    return folder.publish()


def console(
    records: list[TestRecord],
    resolved: Resolved | None,
    environment: dict,
    where: Path | None,
    unfinished: int,
    phases: dict | None = None,
) -> list[str]:
    """The console summary (reports.summary_lines); `phases`: the run's, up to its reports written."""
    return summary_lines(records, list(resolved.stale) if resolved else [], environment, where, unfinished, phases)
