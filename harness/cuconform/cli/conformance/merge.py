"""scripts/conformance merge OUT RUN...: the reports of shards (or of several GPUs) joined into one
(cuconform/merge.py joins them)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cuconform.merge import EXIT_BAD_INPUT, EXIT_INCOMPLETE, EXIT_OK, MergeError, group_parts, load_part, summary
from cuconform.merge import write_merged

HELP = "join the reports of shards (or of several GPUs) into one"
DESCRIPTION = (
    "Joins the results.json of the shards of one run (scripts/conformance run --shard K/N on N machines) "
    "into one results.json and junit.xml in OUT and says which shards are absent. Runs of different "
    "selections or builds are refused; runs made on different GPUs or drivers are joined only with "
    "--different-gpus (each part keeps its environment)."
)
EPILOG = (
    "exit codes: 0 complete and nothing unexpected, 1 unexpected results, missing shards or binaries that could "
    "not start, 2 runs that cannot be read or must not be merged"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("out", type=Path, metavar="OUT", help="the folder of the merged reports")
    parser.add_argument("runs", type=Path, nargs="+", metavar="RUN", help="results.json files or report folders")
    parser.add_argument(
        "--different-gpus",
        action="store_true",
        help="also merge runs made on different GPUs or drivers: each GPU's shards form a group "
        "that must be complete; every part's environment is kept in `parts`",
    )


def run(args: argparse.Namespace) -> int:
    try:
        groups = group_parts([load_part(path) for path in args.runs], args.different_gpus)
    except MergeError as error:
        print(error, file=sys.stderr)
        return EXIT_BAD_INPUT
    document, where = write_merged(groups, args.out)
    print("\n".join(summary(document, where)))
    clean = document["complete"] and not document["unexpected"] and not document.get("unstartable")
    return EXIT_OK if clean else EXIT_INCOMPLETE
