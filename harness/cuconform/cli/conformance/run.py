"""scripts/conformance run: build what is missing, run the chosen rules on this machine, compare the results with
the expectations of the detected compute capability, print a summary and write reports/<run>/ (session.py does
the run; this module turns the command line into its settings, starts it and says how it ended)."""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import signal
import sys
from pathlib import Path

from cuconform import cli, options, protocol
from cuconform.catalog import CatalogError
from cuconform.cli.conformance import build_options
from cuconform.cli.conformance.build_options import BAD_INPUT, EXIT_BAD_INPUT, EXIT_OK, EXIT_UNEXPECTED
from cuconform.environment import DEVICEINFO, REPO, DeviceProbe, look_at_checkout
from cuconform.expectations import dated_skips, load_directory
from cuconform.journal import JOURNAL, JournalError
from cuconform.journal import read as read_journal
from cuconform.options import OptionError, Settings
from cuconform.shard import SelectionError, nothing_matched
from cuconform.stage_select import by_rules, filters_text

HELP = "build, run every rule on this machine, compare, report"
DESCRIPTION = (
    "Builds what is missing, detects the GPU, runs every rule, compares the results with the expectations "
    "of the detected compute capability, prints a summary and writes reports/<run>/. Arguments after -- go "
    "to pytest."
)
EPILOG = "exit codes: 0 nothing unexpected, 1 unexpected results, 2 bad input"

_OUTPUT_ONLY = re.compile(
    r"-q+|-v+|-x|--exitfirst|-r[a-zA-Z]+|--tb=\w+|--durations=\d+|--color=\w+|--no-header|"
    r"--no-summary|-s|--capture=\w+|--full-trace|--showlocals|-l"
)

PLUGIN_AUTOLOAD_ENV = "PYTEST_DISABLE_PLUGIN_AUTOLOAD"  # pytest's own switch, understood by every version we run on
# pytest plugins a conformance run has no use for: the tests run in other processes, so there is no Python output,
# logging, warning or thread exception of theirs to capture. Each costs a fraction of a millisecond per test.
LEAN_PYTEST = (
    "--capture=no",
    "-p",
    "no:logging",
    "-p",
    "no:warnings",
    "-p",
    "no:unraisableexception",
    "-p",
    "no:threadexception",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    build_options.add_arguments(parser)
    parser.add_argument("-k", dest="keyword", metavar="EXPRESSION", help="pytest -k expression over test names")
    options.add_arguments(
        parser,
        [
            option.name
            for option in options.OPTIONS
            if option.name not in ("build-dir", "rule", "exclude-rule", "shard", "progress-every")
        ],
    )
    parser.add_argument(
        "--no-compile-cache",
        action="store_true",
        help="compile every compile-time rule again instead of taking the compiler's earlier result "
        "for the same case, command and toolchain from the build folder's compile cache",
    )
    options.add_arguments(parser, ["shard"])
    parser.add_argument(
        "--resume",
        type=Path,
        metavar="REPORT_FOLDER",
        help="go on with an interrupted run (Ctrl-C, a killed job, a lost machine) in its report "
        "folder: the same tests, without those that finished; takes no option that chooses tests",
    )
    options.add_arguments(parser, ["progress-every"])
    parser.add_argument(
        "pytest_args", nargs=argparse.REMAINDER, help="-- then arguments for pytest (e.g. -x, --lf, -v)"
    )


def run(args: argparse.Namespace) -> int:
    try:
        # Every option, the expectations and what the build needs are checked before anything is built.
        if args.resume is not None:
            _resume_arguments(args)
        settings = options.settings(options.from_arguments(args), resume=args.resume)
        build_options.split_areas(args)
        preset, build_dir = build_options.where(args, settings)
        _check_run_inputs(settings)
        build_options.ensure_built(args, preset, build_dir, always=True)
        return _run(args, settings, build_dir)
    except BAD_INPUT as error:
        print(error, file=sys.stderr)
        return EXIT_BAD_INPUT


# What --resume takes from the interrupted run: every option that chooses or judges the tests, and the sanitizer that
# checks them (the journal's header keeps them: a racecheck run resumed without the tool would report the rest of its
# tests as passing unchecked, as one did on an H200, 2026-11-29). Those that only say how to run them (--timeout,
# --jobs, ...) may be given again.
# The journal's key -> the argument it fills.
_RESUMED = {
    "build_dir": "build_dir",
    "area": "area",
    "rule": "rules",
    "exclude_rule": "exclude_rules",
    "keyword": "keyword",
    "profile": "profile",
    "expectations": "expectations",
    "shard": "shard",
    "pytest_args": "pytest_args",
    "target_cc": "target_cc",
    "sanitizer": "sanitizer",
}
_NOT_WITH_RESUME = {
    "preset": "--preset",
    "build_dir": "--build-dir",
    "area": "--area",
    "rules": "--rule",
    "exclude_rules": "--exclude-rule",
    "keyword": "-k",
    "profile": "--profile",
    "expectations": "--expectations",
    "shard": "--shard",
    "pytest_args": "pytest arguments",
    "output": "--output",
    "reports": "--reports",
    "target_cc": "--target-cc",
    "sanitizer": "--sanitizer",
}


def _rerun_arguments(args: argparse.Namespace, settings: Settings, build_dir: Path) -> dict:
    """What the journal keeps so that --resume selects the same tests: absolute paths, the options as given."""
    return {
        "build_dir": str(build_dir),
        "area": list(args.area),
        "rule": list(settings.rules),
        "exclude_rule": list(settings.exclude_rules),
        "keyword": args.keyword,
        "profile": settings.profile.value,
        "expectations": str(settings.expectations.resolve()),
        "shard": str(settings.shard) if settings.shard else None,
        "pytest_args": list(args.pytest_args),
        "target_cc": settings.target_cc,
        **({"sanitizer": settings.sanitizer} if settings.sanitizer else {}),
    }


def _resume_arguments(args: argparse.Namespace) -> None:
    """Fills `args` from the journal of the run being resumed; raises JournalError for a folder that has none or an
    option that would choose other tests."""
    alone = cli.Parser()
    add_arguments(alone)
    defaults = alone.parse_args([])
    given = [flag for dest, flag in _NOT_WITH_RESUME.items() if getattr(args, dest) != getattr(defaults, dest)]
    if given:
        raise JournalError(f"--resume runs the interrupted run's tests again: leave out {', '.join(given)}")
    final = args.resume.resolve()
    if final.name.endswith(".partial"):
        final = final.with_name(final.name.removesuffix(".partial"))
    staged = final.with_name(final.name + ".partial") / JOURNAL
    if not final.is_dir() and not staged.parent.is_dir():
        raise JournalError(
            f"--resume={args.resume}: no such folder (give the report folder of the interrupted run, reports/<run>)"
        )
    journal = staged if staged.exists() else final / JOURNAL
    if not journal.exists():
        raise JournalError(
            f"{args.resume}: no {JOURNAL} here or in {staged.parent.name}: not a run that can be "
            "resumed (runs record one since cuconform could resume them)"
        )
    recorded = read_journal(journal).header["run"]
    if not recorded.get("build_dir"):
        raise JournalError(f"{journal}: made by pytest, not scripts/conformance run: it cannot be resumed here")
    for key, name in _RESUMED.items():
        if key in recorded:
            setattr(args, name, recorded[key])
    args.output, args.resume, args.no_build = str(final), final, True  # the build as it was: no rebuild in between


def _check_run_inputs(settings: Settings) -> None:
    """What a run reads before it builds: the expectation files and the dated rules of spec/ (a malformed one stops
    the run here)."""
    if not settings.expectations.is_dir():
        raise OptionError(f"--expectations={settings.expectations}: no such folder")
    load_directory(settings.expectations)
    dated_skips()


def _run(args: argparse.Namespace, settings: Settings, build_dir: Path) -> int:
    deviceinfo = build_dir / "bin" / DEVICEINFO
    if not deviceinfo.exists():  # the GPU tests would still run, judged by the no-GPU chain: say so and stop
        raise CatalogError(
            f"{deviceinfo} is missing: without it the run cannot tell which GPU it has, nor which "
            f"expectation files hold (build the whole build: cmake --build {build_dir})"
        )
    probe = DeviceProbe(build_dir)  # a CUDA context takes a moment: start it while the rest is prepared
    look_at_checkout()  # git status, for the reports: in the background too
    binaries = build_options.binaries(args, build_dir)

    from cuconform.session import RunSession

    if args.no_compile_cache:
        os.environ[protocol.COMPILE_CACHE_ENV] = "off"  # the compile-time rules' processes inherit it

    settings = dataclasses.replace(settings, build_dir=build_dir, rerun=_rerun_arguments(args, settings, build_dir))
    session = RunSession(settings, build_dir, probe, command=["scripts/conformance", *sys.argv[1:]])
    signal.signal(signal.SIGTERM, _interrupt)  # a cancelled CI job stops as Ctrl-C does: reports, then resume
    try:
        return _run_session(args, session, binaries)
    except KeyboardInterrupt:  # before pytest started, or after it ended: pytest handles it in between
        session.stop()
        if session.prepare_reports() is not None:
            where = session.write_reports(complete=False)
            print(
                f"\ninterrupted: {len(session.finished_ids)} tests finished; to go on: "
                f"scripts/conformance run --resume {where}",
                file=sys.stderr,
            )
        return EXIT_BAD_INPUT
    finally:
        session.stop()  # whatever pytest did, no test process outlives the run


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def _run_session(args: argparse.Namespace, session, binaries: list[Path]) -> int:
    session.catalog.prefetch(binaries)
    session.running.prepare()
    extra = args.pytest_args[1:] if args.pytest_args[:1] == ["--"] else args.pytest_args
    if not args.keyword and _selection_is_known(extra):
        try:
            cases = [case for binary in binaries for case in session.catalog.list(binary)]
        except CatalogError:
            pass  # pytest reports it as a collection error
        else:
            rules, excluded = session.settings.rules, session.settings.exclude_rules
            if cases and not by_rules(cases, rules, excluded):
                raise SelectionError(nothing_matched(filters_text(rules, excluded), len(cases)))
            session.start_early(cases)

    import pytest  # here: `list` and the errors above do not pay for importing pytest

    from cuconform import plugin

    build_dir = session.build_dir
    pytest_args = [str(path) for path in binaries]
    # Node ids are paths relative to the rootdir: build/<preset>/bin/cuconform-<area>::<test>.
    rootdir = REPO if build_dir.is_relative_to(REPO) else build_dir.parent.parent
    pytest_args += ["--rootdir", str(rootdir), "-c", str(REPO / "pytest.ini"), *LEAN_PYTEST]
    if args.keyword:
        pytest_args += ["-k", args.keyword]
    # pytest is the harness's engine here, not the user's test runner: the plugins installed beside it (coverage,
    # timeouts, benchmarks, property testing, ...) are not loaded unless named (-- -p NAME). On the H200 machines
    # nine of them cost each run about 1.2 s at pytest's start and 0.6-1.1 s at its end
    # (docs/results/h200-2026-11-29-speed6.md), and the run is the same on every machine.
    code = _without_plugin_autoload(
        lambda: pytest.main(pytest_args + extra, plugins=[plugin, plugin.PreparedRun(session)])
    )
    if code == pytest.ExitCode.INTERRUPTED and not session.written:
        raise KeyboardInterrupt  # before pytest's session started: the reports are written as for an early Ctrl-C
    if code == pytest.ExitCode.NO_TESTS_COLLECTED and session.selection and session.selection.size:
        return EXIT_OK  # a shard with no test: the selection is smaller than the number of shards
    return {pytest.ExitCode.OK: EXIT_OK, pytest.ExitCode.TESTS_FAILED: EXIT_UNEXPECTED}.get(code, EXIT_BAD_INPUT)


def _without_plugin_autoload(call):
    """call() with pytest's plugin auto-loading off, the environment as it was afterwards (a caller in the same
    process, such as the project's own tests, keeps its plugins)."""
    before = os.environ.get(PLUGIN_AUTOLOAD_ENV)
    os.environ[PLUGIN_AUTOLOAD_ENV] = "1"
    try:
        return call()
    finally:
        if before is None:
            os.environ.pop(PLUGIN_AUTOLOAD_ENV, None)
        else:
            os.environ[PLUGIN_AUTOLOAD_ENV] = before


def _selection_is_known(pytest_args: list[str]) -> bool:
    """Whether pytest will select every listed test: none of its options that choose tests (-k, -m, --lf, node
    ids, --deselect, ...) is given, only options that shape its output. Then the run can start before pytest."""
    args = iter(pytest_args)
    for arg in args:
        if arg == "-p":
            if not next(args, "").startswith("no:"):
                return False
        elif not _OUTPUT_ONLY.fullmatch(arg):
            return False
    return True
