"""scripts/conformance: the user's entry point.

    scripts/conformance run     build what is missing, run every rule on this machine's GPU, write the reports
                                (--shard K/N: a share of them; --resume reports/<run>: go on after an interruption)
    scripts/conformance list    one line per rule: id, guide section, test(s)
    scripts/conformance diff A B      what changed between two runs (`compare` is an older name for it)
    scripts/conformance merge OUT RUN...   the reports of shards (or of several GPUs) joined into one
    scripts/conformance report DIR    (re)write DIR's report.html and summary.md from its results.json

Exit codes: 0 nothing unexpected; 1 an unexpected result (fail, crash, timeout, xpass, missing);
2 the run could not be made (bad expectation file, bad option, failed build, no test selected, collection error).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import re
import signal
import sys
from pathlib import Path

from cuconform import build, compile_cache
from cuconform.catalog import CatalogError, find_binaries, list_binary
from cuconform.environment import DEVICEINFO, REPO, DeviceProbe
from cuconform.expectations import ExpectationError, load_directory
from cuconform.expectations import SANITIZER_TOOLS
from cuconform.journal import JOURNAL, JournalError
from cuconform.journal import read as read_journal
from cuconform.options import PROFILES, Settings
from cuconform.sanitizer import SANITIZER_SLOWDOWN
from cuconform.shard import SelectionError, parse_shard

EXIT_OK, EXIT_UNEXPECTED, EXIT_BAD_INPUT = 0, 1, 2
_OUTPUT_ONLY = re.compile(r"-q+|-v+|-x|--exitfirst|-r[a-zA-Z]+|--tb=\w+|--durations=\d+|--color=\w+|--no-header|"
                          r"--no-summary|-s|--capture=\w+|--full-trace|--showlocals|-l")

# pytest plugins a conformance run has no use for: the tests run in other processes, so there is no Python output,
# logging, warning or thread exception of theirs to capture. Each costs a fraction of a millisecond per test.
LEAN_PYTEST = ("--capture=no", "-p", "no:logging", "-p", "no:warnings", "-p", "no:unraisableexception",
               "-p", "no:threadexception")


class _Parser(argparse.ArgumentParser):
    """Bad options are one line on stderr and exit 2, as every other bad input is."""

    def error(self, message: str):
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message} (--help lists the options)\n")


def _add_build_options(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--preset", help="CMake preset to build and run: gpu, ci, clang "
                       "(default: gpu when nvidia-smi -L finds a GPU, else ci)")
    where.add_argument("--build-dir", type=Path, help="an existing build folder (build/<preset>) to run instead")
    parser.add_argument("--no-build", action="store_true", help="do not configure or build; run what is there")
    parser.add_argument("--build-jobs", type=int, help="parallel compile jobs for the build (default: CMake's)")
    parser.add_argument("--area", action="append", default=[], metavar="AREA",
                        help="only this area's binary (cuconform-AREA); repeat or comma-separate for several")
    parser.add_argument("--rule", action="append", default=[], metavar="PATTERN",
                        help="only rules or tests whose id matches this fnmatch pattern, e.g. 'sync/*Count*' "
                             "(repeatable)")


def parser() -> argparse.ArgumentParser:
    top = _Parser(prog="conformance", description="cuconform: CUDA conformance suite.",
                                  epilog="exit codes: 0 nothing unexpected, 1 unexpected results, 2 bad input")
    commands = top.add_subparsers(dest="command", required=True, metavar="{run,list,diff,merge,report}")

    run = commands.add_parser("run", help="build, run every rule on this machine, compare, report",
                              description="Builds what is missing, detects the GPU, runs every rule, compares the "
                              "results with the expectations of the detected compute capability, prints a summary "
                              "and writes reports/<run>/. Arguments after -- go to pytest.",
                              epilog="exit codes: 0 nothing unexpected, 1 unexpected results, 2 bad input")
    _add_build_options(run)
    run.add_argument("-k", dest="keyword", metavar="EXPRESSION", help="pytest -k expression over test names")
    run.add_argument("--output", type=Path, help="report folder (default: reports/<run-name>/)")
    run.add_argument("--reports", type=Path, default=REPO / "reports",
                     help="where report folders are made (default: reports/ of this repository)")
    run.add_argument("--timeout", type=float, default=60.0,
                     help="seconds a test may run before it is killed and reported timeout (default: %(default)s)")
    run.add_argument("--jobs", type=int, default=0, help="GPU test processes at a time (default: 4 per GPU; exclusive tests still run alone)")
    run.add_argument("--host-jobs", type=int, default=0, help="processes for the tests that need no GPU, e.g. the "
                     "compile-time rules (default: one per CPU core)")
    run.add_argument("--batch-size", type=int, default=500, help="at most this many tests per process "
                     "(default: %(default)s)")
    run.add_argument("--profile", choices=PROFILES, default="quick",
                     help="quick (every commit) or full (nightly): sets CUCONFORM_PROFILE (default: %(default)s)")
    run.add_argument("--expectations", type=Path, default=REPO / "expectations",
                     help="folder of expectation files (default: expectations/ of this repository)")
    run.add_argument("--sanitizer", choices=SANITIZER_TOOLS, default="",
                     help="run every GPU test under this compute-sanitizer tool; an error it reports while a test "
                     "runs fails the test (timeouts are multiplied by %d)" % SANITIZER_SLOWDOWN)
    run.add_argument("--no-compile-cache", action="store_true",
                     help="compile every compile-time rule again instead of taking the compiler's earlier result "
                     "for the same case, command and toolchain from the build folder's compile cache")
    run.add_argument("--shard", type=_shard, metavar="K/N",
                     help="run shard K of N (from 1): every N-th selected test in id order, starting with the K-th; "
                     "N machines with the same build and options run all of it, `merge` joins their reports")
    run.add_argument("--resume", type=Path, metavar="REPORT_FOLDER",
                     help="go on with an interrupted run (Ctrl-C, a killed job, a lost machine) in its report folder: "
                     "the same tests, without those that finished; takes no option that chooses tests")
    run.add_argument("--progress-every", type=float, default=10.0, metavar="SECONDS",
                     help="a progress line every SECONDS when the output is not a terminal (a terminal gets a live "
                     "line); 0: none (default: %(default)s)")
    run.add_argument("pytest_args", nargs=argparse.REMAINDER, help="-- then arguments for pytest (e.g. -x, --lf, -v)")

    listing = commands.add_parser("list", help="one line per rule: id, section, test(s)",
                                  description="Lists the rules of a build, one line each: rule id, guide section, "
                                  "its test (or its tests' common pattern and count). Needs no GPU.")
    _add_build_options(listing)
    listing.add_argument("-k", dest="keyword", metavar="TEXT", help="only tests whose id contains TEXT")
    shape = listing.add_mutually_exclusive_group()
    shape.add_argument("--tests", action="store_true", help="one line per test instead of per rule")
    shape.add_argument("--json", action="store_true", help="one JSON object per test")
    shape.add_argument("--by-section", action="store_true",
                       help="the sections' table of contents (spec/sections/) with the number of rules under each")
    listing.add_argument("-v", "--verbose", action="store_true", help="add each rule's statement")

    from cuconform import diff, merge  # their own modules

    difference = commands.add_parser("diff", help="what changed between two runs: regressions, fixes, status "
                                     "changes, tests in one run only",
                                     description=diff.DESCRIPTION,
                                     epilog="exit codes: 0 no regression (see --fail-on), 1 otherwise, 2 bad input")
    diff.add_arguments(difference)

    readable = commands.add_parser("report", help="(re)write a run's report.html and summary.md from its "
                                   "results.json", description="Writes report.html and summary.md next to a "
                                   "results.json, e.g. after merging shards or upgrading cuconform. Exit 0: written; "
                                   "2: the results cannot be read or a report cannot be written.")
    readable.add_argument("run", type=Path, help="a report folder (reports/<run>) or its results.json")
    # The older name: `compare A B` is `diff A B --fail-on changes` (exit 1 on any difference, as compare did).
    compare = commands.add_parser("compare", description="The older name of diff; exits 1 on any difference.",
                                  epilog="exit codes: 0 no difference, 1 differences, 2 bad input")
    diff.add_arguments(compare, fail_on="changes")

    joined = commands.add_parser("merge", help="join the reports of shards (or of several GPUs) into one",
                                 description=merge.DESCRIPTION,
                                 epilog="exit codes: 0 complete and nothing unexpected, 1 unexpected results or "
                                 "missing shards, 2 runs that cannot be read or must not be merged")
    merge.add_arguments(joined)
    return top


def _shard(text: str):
    try:
        return parse_shard(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command in ("diff", "compare"):
        from cuconform import diff

        return diff.run(args)
    if args.command == "report":
        return _report(args)
    if args.command == "merge":
        from cuconform import merge

        return merge.run(args)
    try:
        if args.command == "run" and args.resume is not None:
            _resume_arguments(args)
        args.area = [area for value in args.area for area in value.split(",") if area]
        build_dir = _prepare_build(args)
        if args.command == "list":
            return _list(args, build_dir)
        return _run(args, build_dir)
    except (build.BuildError, CatalogError, ExpectationError, JournalError, SelectionError) as error:
        print(error, file=sys.stderr)
        return EXIT_BAD_INPUT


# What --resume takes from the interrupted run: every option that chooses or judges the tests (the journal's header
# keeps them). Those that only say how to run them (--timeout, --jobs, ...) may be given again.
_RESUMED = ("build_dir", "area", "rule", "keyword", "profile", "expectations", "shard", "pytest_args")
_NOT_WITH_RESUME = {"preset": "--preset", "build_dir": "--build-dir", "area": "--area", "rule": "--rule",
                    "keyword": "-k", "profile": "--profile", "expectations": "--expectations", "shard": "--shard",
                    "pytest_args": "pytest arguments", "output": "--output", "reports": "--reports"}


def _rerun_arguments(args: argparse.Namespace, build_dir: Path) -> dict:
    """What the journal keeps so that --resume selects the same tests: absolute paths, the options as given."""
    return {"build_dir": str(build_dir), "area": list(args.area), "rule": list(args.rule), "keyword": args.keyword,
            "profile": args.profile, "expectations": str(args.expectations.resolve()),
            "shard": str(args.shard) if args.shard else None, "pytest_args": list(args.pytest_args)}


def _resume_arguments(args: argparse.Namespace) -> None:
    """Fills `args` from the journal of the run being resumed; raises JournalError for a folder that has none or an
    option that would choose other tests."""
    defaults = parser().parse_args(["run"])
    given = [flag for dest, flag in _NOT_WITH_RESUME.items() if getattr(args, dest) != getattr(defaults, dest)]
    if given:
        raise JournalError(f"--resume runs the interrupted run's tests again: leave out {', '.join(given)}")
    final = args.resume.resolve()
    if final.name.endswith(".partial"):
        final = final.with_name(final.name.removesuffix(".partial"))
    staged = final.with_name(final.name + ".partial") / JOURNAL
    journal = staged if staged.exists() else final / JOURNAL
    if not journal.exists():
        raise JournalError(f"{args.resume}: no {JOURNAL} here or in {staged.parent.name}: not a run that can be "
                           "resumed (runs record one since cuconform could resume them)")
    recorded = read_journal(journal).header["run"]
    if not recorded.get("build_dir"):
        raise JournalError(f"{journal}: made by pytest, not scripts/conformance run: it cannot be resumed here")
    for name in _RESUMED:
        if name in recorded:
            setattr(args, name, recorded[name])
    args.build_dir, args.expectations = Path(args.build_dir), Path(args.expectations)
    args.shard = parse_shard(args.shard) if args.shard else None
    args.output, args.resume, args.no_build = final, final, True  # the build as it was: no rebuild in between


def _prepare_build(args: argparse.Namespace) -> Path:
    preset = args.preset
    if args.build_dir is not None:
        build_dir = args.build_dir.resolve()
    else:
        preset = preset or build.default_preset()
        build_dir = build.build_dir_of(preset)
    if not args.no_build:
        build.ensure_built(build_dir, preset, args.build_jobs, always=args.command == "run")
    return build_dir


def _binaries(args: argparse.Namespace, build_dir: Path) -> list[Path]:
    binaries = find_binaries(build_dir / "bin", args.area or None)
    if not binaries:
        raise CatalogError(f"no suite binaries in {build_dir / 'bin'}: build it first (scripts/conformance run "
                           "builds what is missing)")
    return binaries


def _run(args: argparse.Namespace, build_dir: Path) -> int:
    deviceinfo = build_dir / "bin" / DEVICEINFO
    if not deviceinfo.exists():  # the GPU tests would still run, judged by the no-GPU chain: say so and stop
        raise CatalogError(f"{deviceinfo} is missing: without it the run cannot tell which GPU it has, nor which "
                           f"expectation files hold (build the whole build: cmake --build {build_dir})")
    probe = DeviceProbe(build_dir)  # a CUDA context takes a moment: start it while the rest is prepared
    load_directory(args.expectations)  # a malformed file stops here, before anything is written
    binaries = _binaries(args, build_dir)
    if args.timeout <= 0 or args.jobs < 0 or args.host_jobs < 0 or args.batch_size <= 0 or args.progress_every < 0:
        print("--timeout and --batch-size must be greater than 0, --jobs, --host-jobs and --progress-every 0 or "
              "more", file=sys.stderr)
        return EXIT_BAD_INPUT

    from cuconform.session import RunSession

    if args.no_compile_cache:
        os.environ[compile_cache.ENV] = "off"  # the compile-time rules' processes inherit it

    settings = Settings(build_dir=build_dir, expectations=args.expectations, timeout=args.timeout, jobs=args.jobs,
                        host_jobs=args.host_jobs, batch_size=args.batch_size, profile=args.profile,
                        reports=args.reports, output=args.output, sanitizer=args.sanitizer,
                        rules=tuple(args.rule), shard=args.shard, progress_every=args.progress_every,
                        resume=args.resume, rerun=_rerun_arguments(args, build_dir))
    session = RunSession(settings, build_dir, probe, command=["scripts/conformance", *sys.argv[1:]])
    signal.signal(signal.SIGTERM, _interrupt)  # a cancelled CI job stops as Ctrl-C does: reports, then resume
    try:
        return _run_session(args, session, binaries)
    except KeyboardInterrupt:  # before pytest started, or after it ended: pytest handles it in between
        session.stop()
        if session.prepare_reports() is not None:
            where = session.write_reports(complete=False)
            print(f"\ninterrupted: {len(session.finished_ids)} tests finished; to go on: "
                  f"scripts/conformance run --resume {where}", file=sys.stderr)
        return EXIT_BAD_INPUT
    finally:
        session.stop()  # whatever pytest did, no test process outlives the run


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def _run_session(args: argparse.Namespace, session, binaries: list[Path]) -> int:
    session.prefetch(binaries)
    extra = args.pytest_args[1:] if args.pytest_args[:1] == ["--"] else args.pytest_args
    if not args.keyword and _selection_is_known(extra):
        try:
            session.start_early([case for binary in binaries for case in session.list(binary)])
        except CatalogError:
            pass  # pytest reports it as a collection error

    import pytest  # here: `list` and the errors above do not pay for importing pytest

    from cuconform import plugin

    build_dir = session.build_dir
    pytest_args = [str(path) for path in binaries]
    # Node ids are paths relative to the rootdir: build/<preset>/bin/cuconform-<area>::<test>.
    rootdir = REPO if build_dir.is_relative_to(REPO) else build_dir.parent.parent
    pytest_args += ["--rootdir", str(rootdir), "-c", str(REPO / "pytest.ini"), *LEAN_PYTEST]
    if args.keyword:
        pytest_args += ["-k", args.keyword]
    code = pytest.main(pytest_args + extra, plugins=[plugin, plugin.PreparedRun(session)])
    if code == pytest.ExitCode.INTERRUPTED and not session.written:
        raise KeyboardInterrupt  # before pytest's session started: the reports are written as for an early Ctrl-C
    if code == pytest.ExitCode.NO_TESTS_COLLECTED and session.selection and session.selection.size:
        return EXIT_OK  # a shard with no test: the selection is smaller than the number of shards
    return {pytest.ExitCode.OK: EXIT_OK, pytest.ExitCode.TESTS_FAILED: EXIT_UNEXPECTED}.get(code, EXIT_BAD_INPUT)


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


def _list(args: argparse.Namespace, build_dir: Path) -> int:
    cases = [case for binary in _binaries(args, build_dir) for case in list_binary(binary)]
    if args.rule:
        cases = [c for c in cases if any(fnmatch.fnmatchcase(c.rule_id, p) or fnmatch.fnmatchcase(c.test_id, p)
                                         for p in args.rule)]
    if args.keyword:
        cases = [c for c in cases if args.keyword in c.test_id]
    if args.json:
        for case in cases:
            print(json.dumps({"id": case.test_id, "rule": case.rule_id, "section": case.section,
                              "statement": case.statement, "gpu": case.gpu, "exclusive": case.exclusive,
                              "param": case.param, "source": f"{case.file}:{case.line}"}))
        return EXIT_OK
    if args.by_section:
        from cuconform.sections import by_section

        print("\n".join(by_section(cases)))
        return EXIT_OK
    if args.tests:
        rows = [(case.test_id, case.section, case.rule_id, case.statement) for case in cases]
    else:
        by_rule: dict[str, list] = {}
        for case in cases:
            by_rule.setdefault(case.rule_id, []).append(case)
        rows = [(rule, tests[0].section, _tests_of(tests), tests[0].statement) for rule, tests in by_rule.items()]
    width = [max((len(row[i]) for row in rows), default=0) for i in range(2)]
    for row in rows:
        line = f"{row[0]:{width[0]}}  {row[1]:{width[1]}}  {row[2]}"
        print(f"{line}  {row[3]}" if args.verbose else line)
    return EXIT_OK


def _tests_of(cases: list) -> str:
    """A rule's test, or its tests as one pattern with their count: 'BlockSizes/Sync.Count/* (42 tests)'."""
    if len(cases) == 1:
        return cases[0].name
    names = [case.name for case in cases]
    prefix = names[0]
    for name in names[1:]:
        while not name.startswith(prefix):
            prefix = prefix[:-1]
    return f"{prefix}* ({len(names)} tests)"


def _report(args: argparse.Namespace) -> int:
    from cuconform.reports import HTML, RESULTS, SUMMARY, write_readable

    path = args.run / RESULTS if args.run.is_dir() else args.run
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        print(f"{path}: cannot read a results.json: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not isinstance(document, dict) or not isinstance(document.get("tests"), list):
        print(f"{path}: not a cuconform results.json (no 'tests' list)", file=sys.stderr)
        return EXIT_BAD_INPUT
    folder = args.run if args.run.is_dir() else args.run.parent
    written = write_readable(document, folder)
    for path in written:
        print(path)
    return EXIT_OK if len(written) == len((HTML, SUMMARY)) else EXIT_BAD_INPUT
