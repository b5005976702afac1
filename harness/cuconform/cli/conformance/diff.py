"""scripts/conformance diff A B: what changed between two runs, test by test (cuconform/diff.py compares them)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cuconform.diff import EXIT_BAD_INPUT, DiffError, build_differences, compare, exit_code, load_run, report_lines

HELP = "what changed between two runs: regressions, fixes, status changes, tests in one run only"
DESCRIPTION = (
    "Compares two runs (results.json files or report folders) test by test: regressions (pass in A, failing "
    "in B), fixes, other status changes, verdict changes and tests present in only one run."
)
EPILOG = "exit codes: 0 no regression (see --fail-on), 1 otherwise, 2 bad input"


def add_arguments(parser: argparse.ArgumentParser, fail_on: str = "regressions") -> None:
    parser.add_argument("a", type=Path, metavar="A", help="the first run: a results.json or its report folder")
    parser.add_argument("b", type=Path, metavar="B", help="the second run, compared with A")
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="PATTERN",
        help="only tests whose id or rule id matches this fnmatch pattern (repeatable)",
    )
    parser.add_argument(
        "--fail-on",
        choices=("regressions", "changes", "never"),
        default=fail_on,
        help="exit 1 on regressions, on any change, or never (default: %(default)s)",
    )
    parser.add_argument("--json", action="store_true", help="print the differences as one JSON document")


def run(args: argparse.Namespace) -> int:
    try:
        diff = compare(load_run(args.a), load_run(args.b), args.rule or None)
    except DiffError as error:
        print(error, file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.json:
        print(
            json.dumps(
                {
                    "a": {
                        "path": str(diff.a.path),
                        "label": diff.a.label,
                        "build": diff.a.environment.get("build") or {},
                    },
                    "b": {
                        "path": str(diff.b.path),
                        "label": diff.b.label,
                        "build": diff.b.environment.get("build") or {},
                    },
                    "builds_differ": build_differences(diff.a, diff.b),
                    "unstartable": {
                        "a": [u.line for u in diff.a.unstartable],
                        "b": [u.line for u in diff.b.unstartable],
                    },
                    "tests": {"a": diff.in_a, "b": diff.in_b, "both": diff.common},
                    "counts": diff.counts,
                    "changes": [c.to_json() for c in diff.changes],
                },
                indent=1,
            )
        )
    else:
        for line in report_lines(diff):
            print(line)
    return exit_code(diff, args.fail_on)
