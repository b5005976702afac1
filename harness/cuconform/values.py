"""Writes the documented per-CC values of expectations/*.toml as a C++ table for the test binaries.

    python3 -m cuconform.values expectations/ --cxx build/ci/generated/cuconform/documented_values.inc
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cuconform.expectations import ExpectationError, load_directory


def cxx_table(directory: Path) -> str:
    lines = ["// Generated from expectations/*.toml by harness/cuconform/values.py; edit those files, not this one."]
    for scope, expectation_file in load_directory(directory).items():
        for key, documented in sorted(expectation_file.values.items()):
            lines.append(f'{{"{scope}", "{key}", {documented.value}LL}},')
    lines.append('{"", "", 0LL},  // keeps the table non-empty')
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--cxx", type=Path, required=True, help="the .inc file to write")
    args = parser.parse_args(argv)
    try:
        table = cxx_table(args.directory)
    except ExpectationError as error:
        print(error, file=sys.stderr)
        return 2
    args.cxx.parent.mkdir(parents=True, exist_ok=True)
    if not args.cxx.exists() or args.cxx.read_text() != table:
        args.cxx.write_text(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
