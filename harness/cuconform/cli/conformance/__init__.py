"""scripts/conformance: the user's entry point, one module per subcommand (cuconform/cli/__init__.py says what each
module holds).

    run      build what is missing, run every rule on this machine's GPU, write the reports
             (--shard K/N: a share of them; --resume reports/<run>: go on after an interruption)
    list     one line per rule: id, guide section, test(s)
    build    configure and build only (--cuda-root: another toolkit; --arch: other targets)
    diff     what changed between two runs (`compare` is an older name for it)
    merge    the reports of shards (or of several GPUs) joined into one
    report   (re)write a report folder's report.html and summary.md from its results.json
    mutate   how many injected compiler bugs (PTX mutations) the suite notices, per area
    triage   a draft expectation entry for each unexpected result of a run

build_options.py holds what run, list and build share: the options that choose the build and the areas, and the
build folder they name.

Exit codes: 0 nothing unexpected; 1 an unexpected result (fail, crash, timeout, xpass, missing);
2 the run could not be made (bad expectation file, bad option, failed build, no test selected, collection error).
"""

from __future__ import annotations

import sys

from cuconform import cli

PROGRAM = "conformance"
DESCRIPTION = "cuconform: CUDA conformance suite."
EPILOG = "exit codes: 0 nothing unexpected, 1 unexpected results, 2 bad input"
SUBCOMMANDS = ("run", "list", "build", "diff", "merge", "report", "mutate", "triage", "compare")


def main(argv: list[str] | None = None) -> int:
    return cli.main(sys.modules[__name__], argv)
