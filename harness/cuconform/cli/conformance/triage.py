"""scripts/conformance triage RUN...: a draft expectation entry for each unexpected result of a run
(cuconform/triage.py sorts the failures out and makes the drafts, cuconform/draft_entries.py writes them)."""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from datetime import date
from pathlib import Path

from cuconform.draft_entries import Draft, WriteError, render, write
from cuconform.environment import REPO
from cuconform.expectations import ExpectationError, load_directory
from cuconform.triage import EXIT_BAD_INPUT, EXIT_LEFT, EXIT_OK, SCOPES, Triage, TriageError, load_runs, make_drafts
from cuconform.triage import observed, sort_out

HELP = "a draft expectation entry for each unexpected result of a run"
DESCRIPTION = (
    "Writes a draft expectation entry (draft = true, the observed message as evidence, no reason) for each "
    "unexpected failure of the runs, into the expectation file the rule's nature calls for: the exact "
    "CC's, its family's or common.toml. The next run honours the drafts and shows them apart as "
    '"accepted without review"; run --strict fails on them until someone writes their reasons.'
)
EPILOG = "exit codes: 0 every unexpected result has an entry now, 1 some are left for you (listed), 2 bad input"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "runs",
        type=Path,
        nargs="+",
        metavar="RUN",
        help="a report folder (reports/<run>) or its results.json; several runs (or a merge of "
        "several GPUs) let a failure seen on every GPU of a family go to the family's file",
    )
    parser.add_argument(
        "--expectations",
        type=Path,
        default=REPO / "expectations",
        metavar="DIR",
        help="the folder of expectation files to write into (default: expectations/ of this repository)",
    )
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="PATTERN",
        help="only the tests whose id or rule id matches this fnmatch pattern (repeatable): the "
        "failures you accept, e.g. the regressions `diff` named",
    )
    parser.add_argument(
        "--scope",
        choices=SCOPES,
        help="put every draft in the file of the exact CC, of its family, or common.toml (default: "
        "by the rule's nature)",
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="print the drafts and where they would go; write nothing"
    )


def run(args: argparse.Namespace) -> int:
    try:
        if not args.expectations.is_dir():
            raise TriageError(f"--expectations={args.expectations}: no such folder")
        files = load_directory(args.expectations)
        triage = load_runs(args.runs)
    except (ExpectationError, TriageError) as error:
        print(error, file=sys.stderr)
        return EXIT_BAD_INPUT
    sort_out(triage, files, args.rule)
    make_drafts(triage, args.scope, date.today().isoformat())
    written: list[tuple[Draft, str]] = []
    if args.dry_run:
        for draft in triage.drafts:
            print(f"# would go into {args.expectations / (draft.file + '.toml')}, under '# --- {draft.area} ---'")
            print(render(draft))
        written = [(draft, f"{draft.file}.toml") for draft in triage.drafts]
    else:
        by_file: dict[str, list[Draft]] = defaultdict(list)
        for draft in triage.drafts:
            by_file[draft.file].append(draft)
        for stem, drafts in by_file.items():
            try:
                entries = write(args.expectations / f"{stem}.toml", drafts)
            except WriteError as error:
                print(error, file=sys.stderr)
                return EXIT_BAD_INPUT
            written += [(draft, entry.where) for draft, entry in zip(drafts, entries)]
    for line in report_lines(triage, written, args.dry_run):
        print(line)
    return EXIT_LEFT if triage.left else EXIT_OK


def report_lines(triage: Triage, written: list[tuple[Draft, str]], dry_run: bool) -> list[str]:
    unexpected = len(triage.failures) + len(triage.left) + len(triage.covered)
    lines = []
    for run_line in dict.fromkeys(f"run {context.run}: {context.describe()}" for context in triage.contexts):
        lines.append(run_line)
    lines.append(f"unexpected results: {unexpected}")
    if written:
        tests = sum(len({f.id for f in triage.members[draft]}) for draft, _ in written)
        lines.append(
            f"{'would draft' if dry_run else 'drafted'} {len(written)} "
            f"entr{'y' if len(written) == 1 else 'ies'} for {tests} test{'s' * (tests != 1)} "
            "(draft = true, no reason):"
        )
        for draft, where in written:
            count = len({f.id for f in triage.members[draft]})
            lines.append(f"  {where:24} {draft.status:8} {', '.join(draft.tests)}  ({count} test{'s' * (count > 1)})")
            lines.append(f"  {'':24} {observed(triage.members[draft])[:160]}")
    if triage.covered:
        lines.append(f"judged by an entry now ({len(triage.covered)}), left alone:")
        lines += [f"  {test_id}  ({entry})" for test_id, entry in triage.covered]
    if triage.left:
        lines.append(f"left for you ({len(triage.left)}):")
        lines += [f"  {left.verdict.upper():8} {left.id}: {left.why}" for left in triage.left]
    if written and not dry_run:
        lines.append(
            'the next run honours the drafts and shows them apart as "accepted without review"; review '
            "each: write its reason, then delete `draft = true` (run --strict fails while a draft judges a "
            "test)"
        )
    if not unexpected:
        lines.append("nothing to triage: the runs have no unexpected result")
    return lines
