"""scripts/conformance mutate: its options, then the capture build (mutation/capture_build.py) and the campaign
(mutation/campaign.py).

Every input is checked before anything is built or run: the options (the run's options table, options.py),
equivalent.toml and every suites/<folder>/survivors.toml (one line `file:line: what is wrong`), the operators and
areas named; bad input is one line on stderr and exit 2. Exit 0: the campaign finished and every scored mutant was
killed; 1: a mutant survived or could not be run (error), or (--report-only) the campaign has not finished; 2: bad
input, a failed build, a baseline that cannot judge, a campaign cut (go on with --resume).
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path

from cuconform import build, options
from cuconform.catalog import CatalogError, suite_areas
from cuconform.environment import REPO
from cuconform.expectations import ExpectationError, load_directory
from cuconform.mutation import answers, equivalent
from cuconform.mutation.answers import AnswerError
from cuconform.mutation.area_names import SUITES, built_areas
from cuconform.mutation.campaign import Campaign
from cuconform.mutation.capture_build import ensure_capture_build
from cuconform.mutation.equivalent import EquivalentError
from cuconform.mutation.plan import CampaignError, Plan, check_math_reference, real_engine, with_built_areas
from cuconform.mutation.progress import PROGRESS, Progress
from cuconform.mutation.report import console_lines
from cuconform.mutation.sample import RATE, SEED, Sample
from cuconform.options import OptionError

EXIT_OK, EXIT_SURVIVED, EXIT_BAD_INPUT = 0, 1, 2
DEFAULT_BUILD = REPO / "build" / "mutation"
DEFAULT_OUTPUT = REPO / "reports" / "mutation"
MUTANT_TIMEOUT_S = 10.0
# What --resume takes from mutation.jsonl: options that choose or judge the mutants.
_FROM_PROGRESS = {
    "build_dir": "--build-dir",
    "area": "--area",
    "operator": "--operator",
    "timeout": "--timeout",
    "profile": "--profile",
    "expectations": "--expectations",
    "all": "--all",
    "sample_seed": "--sample-seed",
    "focus_only": "--focus-only",
    "census": "--census/--no-census",
}

HELP = "how many injected compiler bugs the suite notices: a mutation score per area"
DESCRIPTION = """Measures the suite's sensitivity: builds the chosen areas with a compiler launcher that keeps each
object's PTX (build/mutation), runs them once (the baseline), then rebuilds every object where a mutation operator
has a site, patches each (operator, area) mutant into its own binary, and judges the mutants in batches, first by the
tests written beside the changed code, then by their whole areas; it reports per (operator, area) killed, survived,
not applicable, invalid, equivalent or error, with a mutation score per area in DIR/results.json, summary.md and
report.html. The generic integer operators are sampled unless --all. A mutant that hangs is ended by the harness's
--timeout (default here: 10 s). A cut campaign goes on with --resume."""
EPILOG = (
    "exit codes: 0 every scored mutant killed, 1 a mutant survived or could not run (or, --report-only, the "
    "campaign is unfinished), 2 bad input, a failed build, a baseline that cannot judge or a cut campaign (go on "
    "with --resume)"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--preset",
        help="the CMake preset the capture build is configured from: gpu or ci "
        "(default: gpu when nvidia-smi -L finds a GPU, else ci)",
    )
    options.add_arguments(
        parser,
        ["build-dir"],
        {"build-dir": "the capture build: configured and built there when it is not (default: build/mutation)"},
    )
    parser.add_argument("--no-build", action="store_true", help="do not configure or build; mutate what is there")
    parser.add_argument(
        "--build-jobs",
        metavar="N",
        help="parallel compile jobs for the capture build and threads for "
        "the mutant rebuilds (default: one per CPU core)",
    )
    parser.add_argument(
        "--area",
        action="append",
        default=[],
        metavar="AREA",
        help="only this area (default: every area with device code); repeat or comma-separate",
    )
    parser.add_argument(
        "--operator",
        action="append",
        default=[],
        metavar="NAME",
        help="only this mutation operator (default: all; --list-operators names them); repeat or comma-separate",
    )
    parser.add_argument("--list-operators", action="store_true", help="print the operators, one a line, and exit")
    options.add_arguments(
        parser,
        ["output", "timeout", "jobs", "profile", "expectations"],
        {
            "output": "the campaign's folder: baseline/, sites.json, mutants/batch-<operator>/, mutation.jsonl, "
            "results.json, summary.md, report.html (default: reports/mutation)",
            "timeout": f"seconds a test may run, in the baseline and the mutant runs, before the harness kills it and "
            f"reports timeout: a mutant that hangs is killed so (default here: {MUTANT_TIMEOUT_S:g})",
        },
    )
    parser.add_argument(
        "--equivalent",
        type=Path,
        default=equivalent.DEFAULT,
        metavar="FILE",
        help="the equivalent mutants and why (default: harness/cuconform/mutation/equivalent.toml)",
    )
    parser.add_argument(
        "--survivors",
        type=Path,
        default=SUITES,
        metavar="DIR",
        help="the folder whose <folder>/survivors.toml answer the surviving mutants, shown beside them in the "
        "reports (default: suites/)",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="go on with the cut campaign in --output: the "
        "operators its mutation.jsonl does not hold yet (a command cut by a time limit: run it again "
        "with --resume until it ends)",
    )
    parser.add_argument(
        "--report-only",
        action="store_true",
        help="write results.json, summary.md and report.html "
        "of the campaign in --output from what it has done so far, running nothing",
    )
    parser.add_argument(
        "--all",
        action="store_true",
        default=None,
        help=f"every mutant: without it the mutants of the {len(Sample().operators)} generic "
        f"integer operators (setp comparisons, shift signedness, mul.lo) are sampled, "
        f"{RATE * 100:.0f}%% of them, by a hash of the seed, operator and area",
    )
    parser.add_argument("--sample-seed", metavar="N", help=f"the sample's seed (default: {SEED})")
    parser.add_argument(
        "--whole-areas",
        action="store_true",
        help="run each mutant's areas whole at once, instead of first the tests written in the "
        "sources it changed (a kill there decides; a survivor's areas then run whole)",
    )
    parser.add_argument(
        "--focus-only",
        action="store_true",
        default=None,
        help="judge each mutant by the tests written in the sources it changed only: one its "
        "focused tests do not kill survives without a run of its whole area (faster; the score is "
        "then a lower bound)",
    )
    parser.add_argument(
        "--census",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="before the batches, run the areas with host-side mutants once under the interposer's counting mode: "
        "a host-side mutant whose operator would change none of its area's calls is not applicable without a run; "
        "an area whose tests end otherwise than at baseline under the census settles nothing (its mutants all run). "
        "On by default; --no-census runs every host-side mutant",
    )
    parser.add_argument(
        "--batch-mutants",
        metavar="N",
        help="mutants judged together by one harness run "
        "(default: 64; a campaign cut before a batch's mutants are patched makes that batch's rebuilds again)",
    )
    parser.add_argument(
        "--deadline",
        metavar="TIME",
        help="a Unix time, or seconds from now, before which the campaign ends: it begins no batch that the seconds "
        "per mutant of its batches so far say would end later, and stops cleanly, cut (go on with --resume)",
    )
    parser.add_argument(
        "--keep-binaries",
        action="store_true",
        help="keep each batch's patched binaries and rebuilt objects (several GB for all operators)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        engine = real_engine()
        if args.list_operators:
            for op in engine.operators:
                print(f"{op.name:32} {op.family:20} {op.description}")
            return EXIT_OK
        plan, preset = _plan(args, engine)
        names = [op.name for op in engine.operators]
        equivalents = equivalent.load(args.equivalent, names, suite_areas() | set(built_areas()))
        if not args.survivors.is_dir():
            raise OptionError(f"--survivors={args.survivors}: no such folder")
        answered = answers.load(args.survivors, names)
        if args.report_only:
            return _report_only(Campaign(plan, engine, equivalents, answers=answered))
        deadline = _deadline(args.deadline)
        build_seconds = None
        if not args.no_build and not args.resume:
            check_math_reference(plan, plan.areas or sorted(suite_areas()))  # before a build's minutes are spent
            started, ended = time.monotonic(), "stopped after"
            try:
                ensure_capture_build(plan.build_dir, preset, args.build_jobs, list(plan.areas))
                ended = "in"
            finally:  # said even when it fails or is cut: where the command's seconds went
                build_seconds = time.monotonic() - started
                print(f"time: the capture build (configure and build) {ended} {build_seconds:.1f} s", flush=True)
        plan = with_built_areas(plan, engine)
        check_math_reference(plan)
        campaign = Campaign(plan, engine, equivalents, answers=answered, build_seconds=build_seconds, deadline=deadline)
    except (
        build.BuildError,
        CampaignError,
        CatalogError,
        EquivalentError,
        AnswerError,
        ExpectationError,
        OptionError,
    ) as error:
        print(error, file=sys.stderr)
        return EXIT_BAD_INPUT
    signal.signal(signal.SIGTERM, _interrupt)
    print(
        f"mutation campaign: {len(plan.operators)} operators over {len(plan.areas)} areas "
        f"({', '.join(plan.areas)}), --timeout {plan.timeout:g} s, into {plan.output}",
        flush=True,
    )
    try:
        document = campaign.run(resume=args.resume)
    except CampaignError as error:
        print(error, file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print(f"\ninterrupted: to go on, scripts/conformance mutate --output {plan.output} --resume", file=sys.stderr)
        return EXIT_BAD_INPUT
    code = _reported(document, plan)
    if campaign.cut_short:
        print(f"{campaign.cut_short}: to go on, scripts/conformance mutate --output {plan.output} --resume")
        return EXIT_BAD_INPUT
    return code


def _report_only(campaign: Campaign) -> int:
    try:
        document = campaign.report_only()
    except CampaignError as error:
        print(error, file=sys.stderr)
        return EXIT_BAD_INPUT
    return _reported(document, campaign.plan)


def _reported(document: dict, plan: Plan) -> int:
    section = document["mutation"]
    for line in console_lines(section):
        print(line)
    print(f"reports: {plan.output}/results.json, {plan.output}/summary.md, {plan.output}/report.html")
    total = section["total"]
    if not section.get("complete", True):
        print(f"incomplete: to go on, scripts/conformance mutate --output {plan.output} --resume")
        return EXIT_SURVIVED
    return EXIT_SURVIVED if total.get("survived") or total.get("error") else EXIT_OK


def _deadline(value: str | None) -> float | None:
    """--deadline as a Unix time: one given as seconds from now (less than a year's) is added to the time now."""
    if value is None:
        return None
    allowed = "a Unix time or seconds from now, more than 0"
    option = options.Option("deadline", float, float, None, "", allowed=allowed, valid=lambda v: 0 < v < float("inf"))
    seconds = option.value(value, "--deadline")
    return seconds if seconds > _A_YEAR_S else time.time() + seconds


_A_YEAR_S = 365 * 24 * 3600


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def _split(values: list[str]) -> list[str]:
    return [item for value in values for item in value.split(",") if item]


def _plan(args: argparse.Namespace, engine) -> tuple[Plan, str | None]:
    """The campaign's plan from the options (or, with --resume, from its mutation.jsonl) and the preset to build."""
    output = Path(args.output).resolve() if args.output else DEFAULT_OUTPUT
    if args.report_only:
        args.resume = True  # the campaign as it was begun, from its mutation.jsonl
    if args.resume:
        args.output = str(output)
        _resume_arguments(args, output / PROGRESS)
    if args.timeout is None:
        args.timeout = str(MUTANT_TIMEOUT_S)
    settings = options.settings(options.from_arguments(args))
    if not settings.expectations.is_dir():
        raise OptionError(f"--expectations={settings.expectations}: no such folder")
    load_directory(settings.expectations)
    known = [op.name for op in engine.operators]
    chosen = _split(args.operator)
    unknown = [name for name in chosen if name not in known]
    if unknown:
        raise OptionError(f"--operator={unknown[0]}: no such operator (--list-operators names all {len(known)})")
    build_jobs = 0
    if args.build_jobs is not None:
        build_jobs = options.Option(
            "build-jobs", int, int, None, "", allowed="a whole number greater than 0", valid=lambda v: v > 0
        ).value(args.build_jobs, "--build-jobs")
        args.build_jobs = build_jobs
    preset = args.preset
    if not args.no_build and not args.resume:
        preset = preset or build.default_preset()
        if preset not in ("gpu", "ci"):
            raise OptionError(f"--preset={preset}: the capture build needs nvcc: gpu or ci")
    batch_mutants = 64
    if args.batch_mutants is not None:
        batch_mutants = options.Option(
            "batch-mutants", int, int, None, "", allowed="a whole number greater than 0", valid=lambda v: v > 0
        ).value(args.batch_mutants, "--batch-mutants")
    seed = SEED
    if args.sample_seed is not None:
        seed = options.Option("sample-seed", int, int, None, "", allowed="a whole number", valid=lambda v: True).value(
            str(args.sample_seed), "--sample-seed"
        )
    sample = Sample(rate=1.0, seed=seed) if args.all else Sample(seed=seed)
    if args.resume:
        sample = Sample.from_header(args.sample_header)
    build_dir = (settings.build_dir or DEFAULT_BUILD).resolve()
    if (args.no_build or args.resume) and not args.report_only and not (build_dir / "bin").is_dir():
        raise OptionError(f"--build-dir={build_dir}: no built capture build there (leave out --no-build to make it)")
    plan = Plan(
        build_dir=build_dir,
        output=output,
        areas=tuple(_split(args.area)),
        operators=tuple(name for name in known if not chosen or name in chosen),
        timeout=settings.timeout,
        profile=settings.profile.value,
        expectations=settings.expectations.resolve(),
        jobs=settings.jobs,
        build_jobs=build_jobs,
        keep_binaries=args.keep_binaries,
        focus=not args.whole_areas,
        focus_only=bool(args.focus_only),
        sample=sample,
        batch_mutants=batch_mutants,
        census=args.census is not False,
    )
    return plan, preset


def _resume_arguments(args: argparse.Namespace, progress_path: Path) -> None:
    """Fills `args` from the cut campaign's mutation.jsonl; an option that would choose other mutants is an error."""
    given = [flag for dest, flag in _FROM_PROGRESS.items() if getattr(args, dest) not in (None, [])]
    if given:
        raise OptionError(f"--resume goes on with the campaign as it was begun: leave out {', '.join(given)}")
    if not progress_path.exists():
        raise OptionError(f"--resume: {progress_path} does not exist: no campaign to go on with there")
    header = Progress.read(progress_path).header
    args.build_dir, args.area, args.operator = header["build_dir"], header["areas"], header["operators"]
    args.timeout, args.profile, args.expectations = str(header["timeout"]), header["profile"], header["expectations"]
    args.sample_header, args.focus_only = header.get("sample"), bool(header.get("focus_only"))
    args.census = bool(header.get("census"))
    args.no_build = True
