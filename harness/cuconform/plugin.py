"""The pytest plugin: every GoogleTest case of a suite binary is a pytest item.

    pytest -p cuconform.plugin build/ci/bin/cuconform-sync          (scripts/conformance run does this for you)

A thin driver of a run's stages (session.py): collection lists each binary and pytest_collection_modifyitems
selects (select); when the run loop starts, the session resolves the expectations and runs the selected tests in
the background (resolve, run, journal), and each item's runtest waits for its own result; pytest_sessionfinish and
the terminal summary are the report stage. Verdicts map to pytest outcomes so that pytest's exit code and JUnit file
agree with the reports: unexpected -> failed, skip -> skipped with its reason, xfail -> xfailed with reason and
evidence, flake -> passed (and listed in the summary).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import assert_never

import pytest

from cuconform.catalog import CatalogError, TestCase, is_suite_binary
from cuconform.expectations import ExpectationError
from cuconform.journal import JournalError
from cuconform.options import add_options, read_settings
from cuconform.progress import Display
from cuconform.files import bounded_output as _bounded
from cuconform.files import printable
from cuconform.results import TestRecord
from cuconform.session import RunSession
from cuconform.shard import SelectionError, nothing_matched
from cuconform.stage_select import by_rules, filters_text
from cuconform.status import Verdict

SESSION = pytest.StashKey[RunSession]()
DISPLAY = pytest.StashKey[Display]()
DESELECTED = pytest.StashKey[int]()  # how many tests of ours the filters left out (pytest_deselected)
WAIT_SLICE_S = 1.0  # runtest waits in slices so that Ctrl-C is seen at once


class UnexpectedResult(Exception):
    """Raised by an item whose verdict is unexpected; repr_failure turns it into the report's text."""

    def __init__(self, record: TestRecord):
        super().__init__(record.verdict.value)
        self.record = record


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


def _infer_build_dir(config: pytest.Config) -> Path | None:
    """The build of the binaries named on the command line: build/<preset>/bin/cuconform-<area> -> build/<preset>."""
    for arg in config.args:
        path = Path(arg.split("::")[0])
        if is_suite_binary(path):
            return path.parent.parent
        for bin_dir in (path / "bin", path):
            if bin_dir.is_dir() and any(is_suite_binary(p) for p in bin_dir.iterdir()):
                return bin_dir.parent
    return None


class PreparedRun:
    """Handed to pytest.main(plugins=...) by scripts/conformance, which prepares the run itself (it validates the
    expectations and starts the device probe before pytest starts)."""

    def __init__(self, session: RunSession):
        self.session = session


_CONFIG: dict[str, pytest.Config] = {}  # for the hooks pytest gives no config (pytest_runtest_logstart, ...)


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    _CONFIG["config"] = config
    config.addinivalue_line("markers", "gpu: a cuconform rule that needs a CUDA device")
    config.addinivalue_line("markers", "exclusive: a cuconform rule that runs alone on its GPU")
    config.addinivalue_line("markers", "isolated: a cuconform rule that needs a fresh process of its own")
    config.addinivalue_line("markers", "child_processes: a cuconform rule that starts child processes of its binary")
    prepared = next((p for p in config.pluginmanager.get_plugins() if isinstance(p, PreparedRun)), None)
    if prepared is not None:
        config.stash[SESSION] = prepared.session
    else:
        settings = read_settings(config)
        build_dir = settings.build_dir or _infer_build_dir(config)
        if build_dir is None:
            return  # no suite binaries in this session: the plugin stays out of the way
        try:
            config.stash[SESSION] = RunSession(settings, build_dir)
        except ExpectationError as error:
            raise pytest.UsageError(str(error)) from None
    try:
        config.stash[SESSION].prepare_reports()  # junit.xml is written from the results, with the other reports
    except JournalError as error:
        raise pytest.UsageError(str(error)) from None
    except OSError as error:  # --output under a folder that cannot be made or written
        raise pytest.UsageError(f"{error.filename}: cannot write the run's reports there: {error.strerror}") from None


def _session(config: pytest.Config) -> RunSession | None:
    return config.stash.get(SESSION, None)


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if _session(parent.config) is not None and is_suite_binary(file_path):
        return SuiteBinary.from_parent(parent, path=file_path)
    return None


class SuiteBinary(pytest.File):
    """build/<preset>/bin/cuconform-<area>: its tests, from --cuconform_list."""

    def collect(self):
        try:
            cases = _session(self.config).catalog.list(self.path)
        except CatalogError as error:
            raise self.CollectError(str(error)) from None
        for case in cases:
            yield RuleItem.from_parent(self, name=case.name, case=case)


class RuleItem(pytest.Item):
    """One GoogleTest case: one rule (or one parameter of a rule)."""

    def __init__(self, *, case: TestCase, **kwargs):
        super().__init__(**kwargs)
        self.case = case
        self.record: TestRecord | None = None
        self.user_properties += [
            ("test", case.test_id),
            ("rule", case.rule_id),
            ("section", case.section),
            ("statement", case.statement),
        ]
        if case.compiler:
            self.user_properties += [("compiler", case.compiler), ("compiler_version", case.compiler_version or "")]
        self.extra_keyword_matches.update({case.rule_id, case.section, case.area})
        if case.gpu:
            self.add_marker("gpu")
        if case.exclusive:
            self.add_marker("exclusive")
        if case.isolated:
            self.add_marker("isolated")
        if case.child_processes:
            self.add_marker("child_processes")

    def runtest(self) -> None:
        record = self.record
        display = self.config.stash.get(DISPLAY, None)
        session = _session(self.config)
        while not record.done:  # the time it waits makes finished tests' parts of the reports (prerender.py)
            if session.made.make_one():
                time.sleep(0)  # the run's threads first: they may be waiting for the interpreter
            elif record.wait(WAIT_SLICE_S):
                break
            if display is not None:
                display.tick()
        session.reported.append(record)
        self._record_properties(record)
        verdict = record.verdict
        if display is not None:
            if verdict.unexpected:
                display.announce(f"{verdict.value.upper():8} {record.case.test_id}  [{record.case.section}]")
            display.tick()
        match verdict:
            case Verdict.PASS | Verdict.FLAKE:
                return
            case Verdict.SKIP:
                pytest.skip(printable(record.message).strip() or "skipped")
            case Verdict.XFAIL:
                expectation = record.expectation
                reason = expectation.reason or "accepted without review (a draft entry)"
                pytest.xfail(f"{reason} [{expectation.evidence}] ({expectation.where})")
            case Verdict.FAIL | Verdict.CRASH | Verdict.TIMEOUT | Verdict.XPASS | Verdict.MISSING:
                raise UnexpectedResult(record)
            case _:
                assert_never(verdict)

    def _record_properties(self, record: TestRecord) -> None:
        properties = [("verdict", record.verdict.value), ("status", record.status or "none")]
        if record.expectation:
            properties += [
                ("expected", record.expected_status),
                ("expected_reason", record.expectation.reason),
                ("expected_evidence", record.expectation.evidence),
                ("expected_entry", record.expectation.where),
            ]
            if record.expectation.draft:
                properties.append(("expected_draft", "true"))
        if len(record.attempts) > 1:
            properties.append(
                ("attempts", " then ".join(a.status.value if a.status else "none" for a in record.attempts))
            )
        properties += [(f"metric.{name}", value) for name, value in record.metrics.items()]
        self.user_properties += properties

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, pytest.xfail.Exception):
            # pytest reports an xfail by its reason (wasxfail) and never shows this text; its default, a traceback
            # read from the source files, cost 0.1 s per xfail and was most of the harness's own time.
            return str(excinfo.value)
        if not isinstance(excinfo.value, UnexpectedResult):
            return super().repr_failure(excinfo, style)
        record = excinfo.value.record
        lines = [
            f"{record.verdict.value.upper()}: {record.case.test_id}",
            f"rule {record.case.rule_id} [{record.case.section}]: {record.case.statement}",
        ]
        if record.verdict is Verdict.XPASS:
            lines.append(
                f"expected {record.expected_status} ({record.expectation.where}: {record.expectation.reason})"
                " but it passed: the expectation is stale"
            )
        elif record.message:
            lines.append(record.message)
        if record.expectation and record.verdict is not Verdict.XPASS:
            lines.append(f"expected {record.expected_status} ({record.expectation.where}), got {record.status}")
        if record.output.strip():
            lines += ["--- output ---", _bounded(record.output.rstrip())]
        return printable("\n".join(lines))

    def reportinfo(self):
        return self.path, None, self.case.test_id


@pytest.hookimpl(wrapper=True)
def pytest_runtestloop(session: pytest.Session):
    run = _session(session.config)
    if run is not None and not session.config.option.collectonly and not session.testsfailed:
        records = []
        for item in session.items:
            if isinstance(item, RuleItem):
                item.record = run.record_for(item.case)
                item.record.nodeid = item.nodeid
                records.append(item.record)
        run.start(records)
        _follow_the_plan(session, run)
        _start_display(session.config, run)
    try:
        return (yield)
    finally:
        if run is not None:
            run.stop()
        display = session.config.stash.get(DISPLAY, None)
        if display is not None:
            display.end()


def _follow_the_plan(session: pytest.Session, run: RunSession) -> None:
    """pytest reports the tests batch by batch, in the order the plan expects the batches to end, not in the
    listing's: it waits for each test in turn, so in the listing's order it would wait for a late batch while the
    others finish, and report those only after the last batch. (The reports keep the listing's order; pytest's
    line of letters is one per batch.)"""
    order = run.report_order()
    if not order or not all(isinstance(item, RuleItem) for item in session.items):
        return
    listed = {id(item): index for index, item in enumerate(session.items)}
    first = (-1.0, -1, -1)  # a test not run here (restored, an expected skip) is reported at once
    session.items.sort(key=lambda item: (order.get(item.case.test_id, first), listed[id(item)]))


def _start_display(config: pytest.Config, run: RunSession) -> None:
    """The progress line: live on a terminal (then pytest's per-test letters are left out: the line counts them),
    else every --cuconform-progress-every seconds. With -v pytest's own line per test is the progress."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None or config.get_verbosity() > 0:
        return
    live = bool(reporter.isatty())
    if live:
        reporter.showfspath = False
    config.stash[DISPLAY] = Display(run.progress, reporter, live=live, every=run.settings.progress_every)


def pytest_unconfigure(config: pytest.Config) -> None:
    if _CONFIG.get("config") is config:
        del _CONFIG["config"]


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_logstart(nodeid: str, location) -> None:
    """A progress line that is due goes out before pytest starts the next area's line of letters."""
    config = _CONFIG.get("config")
    display = config.stash.get(DISPLAY, None) if config is not None else None
    reporter = config.pluginmanager.get_plugin("terminalreporter") if config is not None else None
    if display is not None and not display.live and reporter is not None:
        if reporter.config.rootpath / nodeid.split("::")[0] != reporter.currentfspath:
            display.line_starts()


@pytest.hookimpl(trylast=True)
def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    config = _CONFIG.get("config")
    display = config.stash.get(DISPLAY, None) if config is not None else None
    if display is not None and not display.live and report.when == "teardown":
        display.line_ended()


@pytest.hookimpl(wrapper=True)
def pytest_report_teststatus(report: pytest.TestReport, config: pytest.Config):
    status = yield
    display = config.stash.get(DISPLAY, None)
    if display is not None and display.live and status and status[1]:
        return status[0], "", status[2]  # the live line shows the counts instead of a letter per test
    return status


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """--rule and --exclude-rule patterns, then the shard (last: after -k, -m and --deselect, the shard is a share of
    what they left). The selection is recorded whether or not there is a shard (results.json `selection`)."""
    run = _session(config)
    if run is None:
        return
    cases = by_rules(
        [item.case for item in items if isinstance(item, RuleItem)], run.settings.rules, run.settings.exclude_rules
    )
    filters = _filters(config)
    if not cases and filters and all(isinstance(item, RuleItem) for item in items):
        raise pytest.UsageError(nothing_matched(filters))  # and not pytest's "no tests ran", exit 5
    try:
        share = set(run.select(cases).test_ids)
    except SelectionError as error:
        raise pytest.UsageError(str(error)) from None
    selected, deselected = [], []
    for item in items:
        chosen = not isinstance(item, RuleItem) or item.case.test_id in share
        (selected if chosen else deselected).append(item)
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = selected
    left_out = config.stash.get(DESELECTED, 0)
    if left_out:  # -k, -m, --deselect, --rule, --exclude-rule or the shard left listed tests out
        tests = sum(isinstance(item, RuleItem) for item in items)
        by = _shortened(_filters(config)) + ([f"--shard {run.settings.shard}"] if run.settings.shard else [])
        run.chosen = {"tests": tests, "listed": tests + left_out, "by": by}


def pytest_deselected(items: list[pytest.Item]) -> None:
    """What each filter left out (pytest's -k, -m and --deselect, and ours above): results.json's `chosen` says
    how many tests the run's binaries listed and which options chose fewer."""
    for item in items:
        if isinstance(item, RuleItem):
            item.config.stash[DESELECTED] = item.config.stash.get(DESELECTED, 0) + 1


def _shortened(filters: list[str], shown: int = 3) -> list[str]:
    """Each option's first few values, then how many more (a mutation campaign's runs give thousands of
    --exclude-rule patterns)."""
    by_option: dict[str, list[str]] = {}
    for text in filters:
        by_option.setdefault(text.split("=", 1)[0].split(" ", 1)[0], []).append(text)
    kept = []
    for texts in by_option.values():
        kept += texts[:shown] + ([f"and {len(texts) - shown} more"] if len(texts) > shown else [])
    return kept


def _filters(config: pytest.Config) -> list[str]:
    """The options given that choose tests, as the user wrote them."""
    settings = _session(config).settings
    filters = filters_text(settings.rules, settings.exclude_rules)
    if config.option.keyword:
        filters.append(f"-k {config.option.keyword}")
    if config.option.markexpr:
        filters.append(f"-m {config.option.markexpr}")
    filters += [f"--deselect {node}" for node in config.option.deselect or []]
    if getattr(config.option, "lf", False):
        filters.append("--lf")
    return filters


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    report = yield
    if isinstance(item, RuleItem):
        record = item.record
        report.duration = _junit_duration(record) if call.when == "call" and record is not None else 0.0
        if report.skipped and isinstance(report.longrepr, tuple) and item.case.file:
            report.longrepr = (item.case.file, item.case.line or 0, report.longrepr[2])  # where the rule is
    return report


def _junit_duration(record: TestRecord) -> float:
    """The harness measured each test in its process (pytest's clock only saw the wait for the result). JUnit
    prints milliseconds: a test that ran for less than one is reported as 0.001 s, never as 0."""
    if not record.attempts or record.first.status is None:
        return 0.0
    return max(record.duration, 0.001)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    run = _session(session.config)
    if run is None:
        return
    if session.config.option.collectonly or exitstatus == pytest.ExitCode.USAGE_ERROR:
        run.stop()
        if run.folder is not None and run.resumed is None:
            run.folder.discard()  # nothing ran: no report (a resumed run's folder keeps its journal)
        return
    run.stop()
    stopped = session.shouldfail or session.shouldstop  # -x and --maxfail set shouldfail; a plugin, shouldstop
    if stopped and len(run.reported) < len(run.records):
        run.stopped_early = stopped if isinstance(stopped, str) else "stopped"
    complete = exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED) and not session.shouldstop
    run.write_reports(complete and len(run.reported) == len(run.records))
    if run.catalog.unstartable and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED  # a binary that did not start: its tests are not done
    if (
        run.settings.strict
        and exitstatus == pytest.ExitCode.OK
        and any(record.expectation is not None and record.expectation.draft for record in run.final_records())
    ):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED  # --strict: a draft entry judged a test (console says so)


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    run = _session(config)
    if run is None or config.option.collectonly:
        return
    if run.catalog.unstartable:
        terminalreporter.section("cuconform")
        for line in sorted(run.catalog.unstartable.values()):
            terminalreporter.write_line(f"NOT RUN  {line}")
    if not run.running.started:
        return
    if not run.catalog.unstartable:
        terminalreporter.section("cuconform")
    if run.stopped_early:
        terminalreporter.write_line(
            f"stopped early: pytest {run.stopped_early} (-x or --maxfail): it reported {len(run.reported)} of the "
            f"{len(run.records)} selected tests; the lines below and the reports hold all {len(run.final_records())} "
            "that finished, some of them ahead of pytest"
        )
    for line in run.console():
        terminalreporter.write_line(line)
