"""scripts/toolkit targets: compile-only validation of the suite for targets this machine has no GPU of.

For each target (sm_80 ... sm_120, with the architecture- and family-specific variants the guide documents: `a`
from CC 9.0, `f` from CC 10.0, PG12.9 20.1) it builds the suite with `scripts/conformance build --arch T
--keep-going` (every kernel must compile for T) and runs the compile-time rules for T (`scripts/conformance run
--area compile`, each case's outcome as the guide gives it for that CC), then writes a verdict matrix: per target,
the binaries that failed to build and the compile-time rules' verdicts. `--cuda-root` does the same with another
toolkit; `--rules-only` skips the suite's build (the compile-time rules need only nvrtc-compile).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path

from cuconform import build, toolkit
from cuconform.environment import REPO

# The guide's targets (PG12.9 20.1.3): the baseline of each CC the suite cares about, `a` from 9.0, `f` from 10.0.
DEFAULT_TARGETS = ("80", "86", "89", "90", "90a", "100", "100a", "100f", "103f", "120", "120a", "120f")
CONFORMANCE = REPO / "scripts" / "conformance"
VERDICTS = ("pass", "fail", "xfail", "xpass", "skip", "crash", "timeout", "flake", "missing")


TARGET_PATTERN = re.compile(r"(?:sm_)?(?P<cc>[1-9][0-9]{1,2})(?P<kind>[af]?)")


def target_name(text: str) -> str:
    """A TARGET argument as CMake spells it ('sm_90a' -> '90a'); anything else is bad input."""
    match = TARGET_PATTERN.fullmatch(text.strip())
    if match is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a target such as 80, 90a or 100f")
    cc, kind = int(match["cc"]), match["kind"]
    if (kind == "a" and cc < 90) or (kind == "f" and cc < 100):
        raise argparse.ArgumentTypeError(
            f"{text!r}: the guide documents `a` targets from CC 9.0 and `f` targets from CC 10.0 (PG12.9 20.1.3)"
        )
    return f"{cc}{kind}"


def _conformance(arguments: list[str], log: Path) -> int:
    with log.open("a", encoding="utf-8") as stream:
        stream.write(f"$ scripts/conformance {' '.join(arguments)}\n")
        stream.flush()
        return subprocess.run(
            [sys.executable, str(CONFORMANCE), *arguments],
            cwd=REPO,
            stdout=stream,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        ).returncode


def failed_targets(log: Path) -> list[str]:
    """The build outputs `scripts/conformance build --keep-going` named as failed ('failed: <output>')."""
    try:
        text = log.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    return [line[len("failed: ") :].strip() for line in text.splitlines() if line.startswith("failed: ")]


def cc_of_target(target: str) -> str:
    """'80' -> '8.0', '100a' -> '10.0', '121' -> '12.1': whose expectation file judges the target's rules."""
    digits = target.removeprefix("sm_").rstrip("af")
    return f"{digits[:-1]}.{digits[-1]}"


def _tests(results: Path) -> list[dict]:
    """The tests of a results.json; none when the run wrote none (its log says why)."""
    try:
        return json.loads(results.read_text(encoding="utf-8")).get("tests", [])
    except (OSError, ValueError):
        return []


def verdict_counts(results: Path) -> dict[str, int]:
    counts: dict[str, int] = {}
    for test in _tests(results):
        counts[test.get("verdict", "?")] = counts.get(test.get("verdict", "?"), 0) + 1
    return counts


def unexpected_tests(results: Path) -> list[str]:
    return sorted(
        test["id"]
        for test in _tests(results)
        if test.get("verdict") in ("fail", "crash", "timeout", "xpass", "missing")
    )


def validate(target: str, args: argparse.Namespace, log_dir: Path) -> dict:
    """Builds and runs the compile-time rules for one target; its row of the matrix."""
    log = log_dir / f"sm{target}.log"
    log.unlink(missing_ok=True)
    where = ["--preset", args.preset, "--arch", target]
    if args.cuda_root is not None:
        where += ["--cuda-root", str(args.cuda_root)]
    jobs = ["--build-jobs", str(args.build_jobs)] if args.build_jobs else []
    started = time.monotonic()
    built = _conformance(
        ["build", *where, *jobs, "--keep-going", *(["--area", "compile"] if args.rules_only else [])], log
    )
    build_s = time.monotonic() - started
    build_dir = build.build_dir_of(args.preset, args.cuda_root, target)
    report = args.output / f"sm{target}"
    started = time.monotonic()
    ran = _conformance(
        [
            "run",
            "--build-dir",
            str(build_dir),
            "--no-build",
            "--area",
            "compile",
            "--target-cc",
            cc_of_target(target),
            "--output",
            str(report),
            *(["--host-jobs", str(args.host_jobs)] if args.host_jobs else []),
            *[f"--rule={pattern}" for pattern in args.rule],
        ],
        log,
    )
    return {
        "target": f"sm_{target}",
        "build_dir": str(build_dir),
        "build_exit": built,
        "build_failed": failed_targets(log),
        "build_s": round(build_s),
        "rules_exit": ran,
        "rules_s": round(time.monotonic() - started),
        "rules": verdict_counts(report / "results.json"),
        "unexpected": unexpected_tests(report / "results.json"),
        "log": str(log),
    }


def matrix_lines(rows: list[dict], toolkit_name: str, rules_only: bool) -> list[str]:
    lines = [
        f"# Verdict matrix per target ({toolkit_name})",
        "",
        "Each target: the suite built for it (`scripts/conformance build --arch T --keep-going`"
        + (", skipped: --rules-only" if rules_only else "")
        + ") and the compile-time rules run for it "
        "(`scripts/conformance run --area compile`). A build failure or an unexpected rule is a finding or "
        "an entry of that CC's expectation file.",
        "",
        "| target | suite build | " + " | ".join(VERDICTS) + " | unexpected |",
        "| --- | --- | " + " | ".join("---:" for _ in VERDICTS) + " | --- |",
    ]
    for row in rows:
        if rules_only:
            built = "not built"
        elif row["build_failed"]:
            built = f"**{len(row['build_failed'])} failed**: " + ", ".join(Path(f).name for f in row["build_failed"])
        else:
            built = "ok" if row["build_exit"] == 0 else f"**exit {row['build_exit']}** (see {row['log']})"
        counts = [str(row["rules"].get(verdict, 0)) for verdict in VERDICTS]
        unexpected = ", ".join(row["unexpected"][:8]) + (" …" if len(row["unexpected"]) > 8 else "")
        lines.append(
            f"| {row['target']} | {built} ({row['build_s']} s) | " + " | ".join(counts) + f" | {unexpected or '-'} |"
        )
    return lines


def validate_all(args: argparse.Namespace) -> int:
    """Every target of `args` validated (scripts/toolkit targets' options), the matrix written; the exit code."""
    if args.cuda_root is not None:
        args.cuda_root = args.cuda_root.resolve()
        toolkit_name = f"CUDA {toolkit.release_of(args.cuda_root)} from {args.cuda_root}"
    else:
        toolkit_name = "the toolkit CMake finds"
    args.output = args.output.resolve()
    args.output.mkdir(parents=True, exist_ok=True)
    rows = []
    for target in args.targets:
        target = target.removeprefix("sm_")
        print(f"targets: sm_{target} ...", file=sys.stderr, flush=True)
        row = validate(target, args, args.output)
        rows.append(row)
        print(
            f"targets: sm_{target}: build {'ok' if row['build_exit'] == 0 else 'FAILED'} ({row['build_s']} s), "
            f"rules {row['rules']} ({row['rules_s']} s)",
            file=sys.stderr,
            flush=True,
        )
    (args.output / "matrix.json").write_text(
        json.dumps({"toolkit": toolkit_name, "rows": rows}, indent=1) + "\n", encoding="utf-8"
    )
    text = "\n".join(matrix_lines(rows, toolkit_name, args.rules_only)) + "\n"
    (args.output / "matrix.md").write_text(text, encoding="utf-8")
    print(text)
    print(args.output / "matrix.md")
    return 0 if all(row["build_exit"] == 0 and row["rules_exit"] == 0 for row in rows) else 1
