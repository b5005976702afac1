"""scripts/conformance report: (re)write a run's report.html and summary.md from its results.json (after a merge,
an upgrade of cuconform, or for a mutation campaign's folder)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cuconform.mutation.report_pages import PART as MUTATION
from cuconform.reports import HTML, SUMMARY, write_readable
from cuconform.results_file import ResultsError, read

EXIT_OK, EXIT_BAD_INPUT = 0, 2
HELP = "(re)write a run's report.html and summary.md from its results.json"
DESCRIPTION = (
    "Writes report.html and summary.md next to a results.json, e.g. after merging shards or upgrading "
    "cuconform. Exit 0: written; 2: the results cannot be read or a report cannot be written."
)
EPILOG = ""
# The parts that features add to the readable reports (reports.ReportPart): each shows its own section of
# results.json, and nothing for a document without one.
PARTS = (MUTATION,)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run", type=Path, help="a report folder (reports/<run>) or its results.json")


def run(args: argparse.Namespace) -> int:
    try:
        results = read(args.run)
    except ResultsError as error:
        print(error, file=sys.stderr)
        return EXIT_BAD_INPUT
    written = write_readable(results.document, results.folder, PARTS)
    for path in written:
        print(path)
    return EXIT_OK if len(written) == len((HTML, SUMMARY)) else EXIT_BAD_INPUT
