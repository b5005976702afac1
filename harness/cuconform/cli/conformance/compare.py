"""scripts/conformance compare A B: the older name of diff; `compare A B` is `diff A B --fail-on changes` (exit 1 on
any difference, as compare did). Not listed in --help."""

from __future__ import annotations

import argparse

from cuconform.cli.conformance import diff

HELP = None
DESCRIPTION = "The older name of diff; exits 1 on any difference."
EPILOG = "exit codes: 0 no difference, 1 differences, 2 bad input"
run = diff.run


def add_arguments(parser: argparse.ArgumentParser) -> None:
    diff.add_arguments(parser, fail_on="changes")
