"""scripts/conformance: the user's entry point.

    scripts/conformance run     build what is missing, run every rule on this machine's GPU, write the reports
                                (--shard K/N: a share of them; --resume reports/<run>: go on after an interruption)
    scripts/conformance list    one line per rule: id, guide section, test(s)
    scripts/conformance build   configure and build only (--cuda-root: another toolkit; --arch: other targets)
    scripts/conformance diff A B      what changed between two runs (`compare` is an older name for it)
    scripts/conformance merge OUT RUN...   the reports of shards (or of several GPUs) joined into one
    scripts/conformance report DIR    (re)write DIR's report.html and summary.md from its results.json
    scripts/conformance mutate  how many injected compiler bugs (PTX mutations) the suite notices, per area
    scripts/conformance triage RUN    a draft expectation entry for each unexpected result of a run

Exit codes: 0 nothing unexpected; 1 an unexpected result (fail, crash, timeout, xpass, missing);
2 the run could not be made (bad expectation file, bad option, failed build, no test selected, collection error).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import signal
import sys
from pathlib import Path

from cuconform import build, options, protocol
from cuconform.catalog import CatalogError, area_of, find_binaries, is_suite_binary, list_binary
from cuconform.environment import DEVICEINFO, REPO, DeviceProbe
from cuconform.expectations import ExpectationError, load_directory
from cuconform.journal import JOURNAL, JournalError
from cuconform.journal import read as read_journal
from cuconform.options import OptionError, Settings
from cuconform.shard import SelectionError, nothing_matched
from cuconform.stage_select import by_rules

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
    where.add_argument("--preset", help=f"CMake preset to build and run: {', '.join(build.presets())} "
                       "(default: gpu when nvidia-smi -L finds a GPU, else ci)")
    options.add_arguments(where, ["build-dir"])
    parser.add_argument("--no-build", action="store_true", help="do not configure or build; run what is there")
    parser.add_argument("--build-jobs", metavar="N", help="parallel compile jobs for the build (default: CMake's)")
    parser.add_argument("--cuda-root", type=Path, metavar="DIR",
                        help="build with the CUDA toolkit at DIR (scripts/toolkit install prints one) instead of "
                        "the one CMake finds: the build folder is build/<preset>-cuda<release>")
    parser.add_argument("--arch", metavar="LIST",
                        help="the targets to build device code for, as CMAKE_CUDA_ARCHITECTURES takes them "
                        "(80, 90a, 100f, 80;90; clang presets: one, as sm_80): the build folder gains -sm<LIST>")
    parser.add_argument("--area", action="append", default=[], metavar="AREA",
                        help="only this area's binary (cuconform-AREA); repeat or comma-separate for several")
    options.add_arguments(parser, ["rule"])


def parser() -> argparse.ArgumentParser:
    top = _Parser(prog="conformance", description="cuconform: CUDA conformance suite.",
                                  epilog="exit codes: 0 nothing unexpected, 1 unexpected results, 2 bad input")
    commands = top.add_subparsers(dest="command", required=True,
                                  metavar="{run,list,build,diff,merge,report,mutate,triage}")

    run = commands.add_parser("run", help="build, run every rule on this machine, compare, report",
                              description="Builds what is missing, detects the GPU, runs every rule, compares the "
                              "results with the expectations of the detected compute capability, prints a summary "
                              "and writes reports/<run>/. Arguments after -- go to pytest.",
                              epilog="exit codes: 0 nothing unexpected, 1 unexpected results, 2 bad input")
    _add_build_options(run)
    run.add_argument("-k", dest="keyword", metavar="EXPRESSION", help="pytest -k expression over test names")
    options.add_arguments(run, [option.name for option in options.OPTIONS
                                if option.name not in ("build-dir", "rule", "shard", "progress-every")])
    run.add_argument("--no-compile-cache", action="store_true",
                     help="compile every compile-time rule again instead of taking the compiler's earlier result "
                     "for the same case, command and toolchain from the build folder's compile cache")
    options.add_arguments(run, ["shard"])
    run.add_argument("--resume", type=Path, metavar="REPORT_FOLDER",
                     help="go on with an interrupted run (Ctrl-C, a killed job, a lost machine) in its report folder: "
                     "the same tests, without those that finished; takes no option that chooses tests")
    options.add_arguments(run, ["progress-every"])
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

    building = commands.add_parser("build", help="configure and build only (another toolkit, other targets)",
                                   description="Configures and builds a preset, optionally with another CUDA "
                                   "toolkit (--cuda-root) and for other targets (--arch); --area builds only those "
                                   "areas' binaries. Prints the build folder as the last line. Needs no GPU.",
                                   epilog="exit codes: 0 built, 2 the build failed or a bad option")
    _add_build_options(building)
    building.add_argument("--keep-going", action="store_true",
                          help="build every target that can be built (ninja -k 0); the failures are listed")

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

    from cuconform.mutation import command as mutation

    mutate = commands.add_parser("mutate", help="how many injected compiler bugs the suite notices: a mutation "
                                 "score per area", description=mutation.DESCRIPTION,
                                 epilog="exit codes: 0 every scored mutant killed, 1 a mutant survived or could not "
                                 "run (or, --report-only, the campaign is unfinished), 2 bad input, a failed build, "
                                 "a baseline that cannot judge or a cut campaign (go on with --resume)")
    mutation.add_arguments(mutate)

    from cuconform import triage

    drafting = commands.add_parser("triage", help="a draft expectation entry for each unexpected result of a run",
                                   description=triage.DESCRIPTION, epilog="exit codes: 0 every unexpected result has "
                                   "an entry now, 1 some are left for you (listed), 2 bad input")
    triage.add_arguments(drafting)
    return top


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
    if args.command == "triage":
        from cuconform import triage

        return triage.run(args)
    if args.command == "mutate":
        from cuconform.mutation import command as mutation

        return mutation.run(args)
    try:
        # Every option, the expectations and what the build needs are checked before anything is built.
        if args.command == "run" and args.resume is not None:
            _resume_arguments(args)
        settings = options.settings(options.from_arguments(args), resume=getattr(args, "resume", None))
        args.area = [area for value in args.area for area in value.split(",") if area]
        preset, build_dir = _where(args, settings)
        if args.command == "run":
            _check_run_inputs(settings)
        if args.command == "build":
            return _build(args, preset, build_dir)
        if not args.no_build:
            build.ensure_built(build_dir, preset, args.build_jobs, always=args.command == "run",
                               cache=build.cache_arguments(preset, args.cuda_root, args.arch))
        if args.command == "list":
            return _list(args, settings, build_dir)
        return _run(args, settings, build_dir)
    except (build.BuildError, CatalogError, ExpectationError, JournalError, OptionError, SelectionError) as error:
        print(error, file=sys.stderr)
        return EXIT_BAD_INPUT


# What --resume takes from the interrupted run: every option that chooses or judges the tests (the journal's header
# keeps them). Those that only say how to run them (--timeout, --jobs, ...) may be given again.
# The journal's key -> the argument it fills.
_RESUMED = {"build_dir": "build_dir", "area": "area", "rule": "rules", "keyword": "keyword", "profile": "profile",
            "expectations": "expectations", "shard": "shard", "pytest_args": "pytest_args", "target_cc": "target_cc"}
_NOT_WITH_RESUME = {"preset": "--preset", "build_dir": "--build-dir", "area": "--area", "rules": "--rule",
                    "keyword": "-k", "profile": "--profile", "expectations": "--expectations", "shard": "--shard",
                    "pytest_args": "pytest arguments", "output": "--output", "reports": "--reports",
                    "target_cc": "--target-cc"}


def _rerun_arguments(args: argparse.Namespace, settings: Settings, build_dir: Path) -> dict:
    """What the journal keeps so that --resume selects the same tests: absolute paths, the options as given."""
    return {"build_dir": str(build_dir), "area": list(args.area), "rule": list(settings.rules),
            "keyword": args.keyword, "profile": settings.profile.value,
            "expectations": str(settings.expectations.resolve()),
            "shard": str(settings.shard) if settings.shard else None, "pytest_args": list(args.pytest_args),
            "target_cc": settings.target_cc}


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
    if not final.is_dir() and not staged.parent.is_dir():
        raise JournalError(f"--resume={args.resume}: no such folder (give the report folder of the interrupted run, "
                           "reports/<run>)")
    journal = staged if staged.exists() else final / JOURNAL
    if not journal.exists():
        raise JournalError(f"{args.resume}: no {JOURNAL} here or in {staged.parent.name}: not a run that can be "
                           "resumed (runs record one since cuconform could resume them)")
    recorded = read_journal(journal).header["run"]
    if not recorded.get("build_dir"):
        raise JournalError(f"{journal}: made by pytest, not scripts/conformance run: it cannot be resumed here")
    for key, name in _RESUMED.items():
        if key in recorded:
            setattr(args, name, recorded[key])
    args.output, args.resume, args.no_build = str(final), final, True  # the build as it was: no rebuild in between


def _where(args: argparse.Namespace, settings: Settings) -> tuple[str | None, Path]:
    """The preset (None: an existing build folder) and the build folder; checks --preset, --build-jobs, --area and
    whether the build can be made on this machine (OptionError)."""
    presets = build.presets()
    if args.preset is not None and args.preset not in presets:
        raise OptionError(f"--preset={args.preset}: must be one of {', '.join(presets)}")
    if args.build_jobs is not None:
        args.build_jobs = options.Option("build-jobs", int, int, None, "", allowed="a whole number greater than 0",
                                         valid=lambda v: v > 0).value(args.build_jobs, "--build-jobs")
    preset = args.preset
    if settings.build_dir is not None:
        if args.cuda_root is not None or args.arch is not None:
            raise OptionError("--cuda-root and --arch choose how a preset is built: give --preset, not --build-dir")
        build_dir = settings.build_dir.resolve()
        if not build_dir.is_dir():
            raise OptionError(f"--build-dir={settings.build_dir}: no such folder")
    else:
        preset = preset or ("ci" if args.command == "build" and args.arch else build.default_preset())
        if args.cuda_root is not None:
            args.cuda_root = args.cuda_root.resolve()
            if not (args.cuda_root / "bin" / "nvcc").exists():
                raise OptionError(f"--cuda-root={args.cuda_root}: no bin/nvcc there (scripts/toolkit install "
                                  "VERSION lays out a toolkit and prints its root)")
        if args.arch is not None and not re.fullmatch(r"(sm_)?\d+[af]?(-real|-virtual)?(;\d+[af]?(-real|-virtual)?)*",
                                                      args.arch):
            raise OptionError(f"--arch={args.arch}: a CUDA architecture list as CMake takes it: 80, 90a, 100f, 80;90")
        build_dir = build.build_dir_of(preset, args.cuda_root, args.arch)
        configured = (build_dir / "CMakeCache.txt").exists()
        if preset == "gpu" and args.arch is None and not args.no_build and not configured \
                and not build.gpu_present():
            raise OptionError("--preset=gpu: builds for this machine's GPU, and nvidia-smi -L finds none: use "
                              "--preset ci or clang here (or --build-dir with a build made on a GPU machine)")
    known = _known_areas(build_dir, will_build=not args.no_build and (preset is not None or
                                                                       (build_dir / "CMakeCache.txt").exists()))
    for area in args.area:
        if area not in known:
            raise OptionError(f"--area={area}: no such area (areas: {', '.join(sorted(known)) or 'none'})")
    return preset, build_dir


def _build(args: argparse.Namespace, preset: str | None, build_dir: Path) -> int:
    """scripts/conformance build: configure and build (only the areas given), print the folder."""
    targets = [f"cuconform-{area}" for area in args.area if area != "compile"]
    if "compile" in args.area:
        targets += ["nvrtc-compile"]  # the compile-time rules' script is written when CMake configures
    if args.area:
        targets.append(DEVICEINFO)
    failed = build.ensure_built(build_dir, preset, args.build_jobs, always=True,
                                cache=build.cache_arguments(preset, args.cuda_root, args.arch),
                                targets=targets, keep_going=args.keep_going)
    for target in failed:
        print(f"failed: {target}", file=sys.stderr)
    print(build_dir)
    return EXIT_BAD_INPUT if failed else EXIT_OK


def _known_areas(build_dir: Path, will_build: bool) -> set[str]:
    """The areas whose binaries the run can have: those built, and those of suites/ when it builds."""
    bin_dir = build_dir / "bin"
    known = {area_of(path) for path in bin_dir.iterdir() if is_suite_binary(path)} if bin_dir.is_dir() else set()
    if will_build:
        known |= {folder.name for folder in (REPO / "suites").iterdir()
                  if (folder / "CMakeLists.txt").exists() and folder.name != "common"}
    return known


def _check_run_inputs(settings: Settings) -> None:
    """What a run reads before it builds: the expectation files (a malformed one stops the run here)."""
    if not settings.expectations.is_dir():
        raise OptionError(f"--expectations={settings.expectations}: no such folder")
    load_directory(settings.expectations)


def _binaries(args: argparse.Namespace, build_dir: Path) -> list[Path]:
    binaries = find_binaries(build_dir / "bin", args.area or None)
    if not binaries:
        raise CatalogError(f"no suite binaries in {build_dir / 'bin'}: build it first (scripts/conformance run "
                           "builds what is missing)")
    return binaries


def _run(args: argparse.Namespace, settings: Settings, build_dir: Path) -> int:
    deviceinfo = build_dir / "bin" / DEVICEINFO
    if not deviceinfo.exists():  # the GPU tests would still run, judged by the no-GPU chain: say so and stop
        raise CatalogError(f"{deviceinfo} is missing: without it the run cannot tell which GPU it has, nor which "
                           f"expectation files hold (build the whole build: cmake --build {build_dir})")
    probe = DeviceProbe(build_dir)  # a CUDA context takes a moment: start it while the rest is prepared
    binaries = _binaries(args, build_dir)

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
            print(f"\ninterrupted: {len(session.finished_ids)} tests finished; to go on: "
                  f"scripts/conformance run --resume {where}", file=sys.stderr)
        return EXIT_BAD_INPUT
    finally:
        session.stop()  # whatever pytest did, no test process outlives the run


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def _run_session(args: argparse.Namespace, session, binaries: list[Path]) -> int:
    session.catalog.prefetch(binaries)
    extra = args.pytest_args[1:] if args.pytest_args[:1] == ["--"] else args.pytest_args
    if not args.keyword and _selection_is_known(extra):
        try:
            cases = [case for binary in binaries for case in session.catalog.list(binary)]
        except CatalogError:
            pass  # pytest reports it as a collection error
        else:
            if cases and not by_rules(cases, session.settings.rules):
                raise SelectionError(nothing_matched([f"--rule={pattern}" for pattern in session.settings.rules],
                                                     len(cases)))
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


def _list(args: argparse.Namespace, settings: Settings, build_dir: Path) -> int:
    listed = [case for binary in _binaries(args, build_dir) for case in list_binary(binary)]
    cases = by_rules(listed, settings.rules)
    if args.keyword:
        cases = [c for c in cases if args.keyword in c.test_id]
    if listed and not cases:
        filters = [f"--rule={pattern}" for pattern in settings.rules] + ([f"-k {args.keyword}"] if args.keyword else [])
        raise SelectionError(nothing_matched(filters, len(listed)))
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
    from cuconform.reports import HTML, SUMMARY, write_readable
    from cuconform.results_file import ResultsError, read

    try:
        results = read(args.run)
    except ResultsError as error:
        print(error, file=sys.stderr)
        return EXIT_BAD_INPUT
    written = write_readable(results.document, results.folder)
    for path in written:
        print(path)
    return EXIT_OK if len(written) == len((HTML, SUMMARY)) else EXIT_BAD_INPUT
