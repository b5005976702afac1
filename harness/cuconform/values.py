"""The documented per-CC values of spec/cc_values.toml, and the C++ table the test binaries are built with.

    python3 -m cuconform.values spec/cc_values.toml --cxx build/ci/generated/cuconform/documented_values.inc

spec/cc_values.toml states what the documentation says (one entry per value, one column per compute capability);
expectations/ says only where a device, driver or compiler is known to differ. A test looks a value up through the
chain sm_90 -> sm_9x -> common (suites/common/src/documented.cpp): a CC column "9.0" becomes the scope sm_90, a
family column "10.x" the scope sm_10x, and `value` (every CC) the scope common.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from cuconform import spec
from cuconform.spec import CC_VALUES, SpecError

_ENTRY_KEYS = {"source", "read", "note", "value", "values"}
_COLUMN = re.compile(r"^(\d+)\.(\d|x)$")


@dataclass(frozen=True)
class DocumentedValue:
    key: str
    source: str
    line: int
    value: int | None = None  # for every CC (the scope common)
    values: tuple[tuple[str, int], ...] = ()  # (column, value) per CC column, e.g. ("9.0", 128), ("10.x", 128)
    read: str | None = None
    note: str | None = None

    def scoped(self) -> list[tuple[str, int]]:
        """(scope, value) pairs as the lookup chain names them: ("common", 32) or ("sm_90", 128), ("sm_10x", 128)."""
        if self.value is not None:
            return [("common", self.value)]
        return [(scope_of(column), value) for column, value in self.values]


def scope_of(column: str) -> str:
    """'9.0' -> 'sm_90', '10.x' -> 'sm_10x'."""
    major, minor = column.split(".")
    return f"sm_{major}{minor}"


def _integer(path: Path, line: int, key: str, value: object) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    raise SpecError(path, line, f"value '{key}' must be an integer or a boolean, not {value!r}")


def load(path: Path = CC_VALUES) -> dict[str, DocumentedValue]:
    """Every documented value of the file, validated, by key (in the file's order)."""
    table = spec.read(path)
    document = dict(table.data)
    columns = document.pop("columns", None)
    if (
        not isinstance(columns, list)
        or not columns
        or not all(isinstance(c, str) and _COLUMN.match(c) for c in columns)
    ):
        raise SpecError(path, 1, '\'columns\' must list the CC columns, e.g. ["5.0", "9.0", "10.x"]')
    parsed = {}
    for key, entry in document.items():
        line = table.key_line(key)
        if not re.fullmatch(r"[a-z][a-z0-9_]*", key):
            raise SpecError(path, line, f"value name '{key}' must be lower_snake_case")
        if not isinstance(entry, dict):
            raise SpecError(path, line, f"'{key}' must be a table with 'source' and 'value' or 'values'")
        unknown = set(entry) - _ENTRY_KEYS
        if unknown:
            raise SpecError(
                path, line, f"unknown key '{sorted(unknown)[0]}' in '{key}' (allowed: {', '.join(sorted(_ENTRY_KEYS))})"
            )
        source = entry.get("source")
        if not isinstance(source, str) or not source.strip():
            raise SpecError(path, line, f"'{key}' needs a 'source' citing the documentation")
        if ("value" in entry) == ("values" in entry):
            raise SpecError(path, line, f"'{key}' needs either 'value' (every CC) or 'values' (per CC column)")
        value, values = None, ()
        if "value" in entry:
            value = _integer(path, line, key, entry["value"])
        else:
            per_column = entry["values"]
            if not isinstance(per_column, dict) or not per_column:
                raise SpecError(path, line, f"'values' of '{key}' must be a table {{ \"9.0\" = N, ... }}")
            unknown = [column for column in per_column if column not in columns]
            if unknown:
                raise SpecError(
                    path,
                    line,
                    f"'{key}' has a value for '{unknown[0]}', which is not one of the columns ({', '.join(columns)})",
                )
            values = tuple(
                (column, _integer(path, line, key, per_column[column])) for column in columns if column in per_column
            )
        parsed[key] = DocumentedValue(key, source.strip(), line, value, values, entry.get("read"), entry.get("note"))
    return parsed


def cxx_table(path: Path = CC_VALUES) -> str:
    """The rows {scope, key, value} of documented_values.inc, by scope then key."""
    rows = sorted((scope, key, value) for key, documented in load(path).items() for scope, value in documented.scoped())
    lines = ["// Generated from spec/cc_values.toml by harness/cuconform/values.py; edit that file, not this one."]
    lines += [f'{{"{scope}", "{key}", {value}LL}},' for scope, key, value in rows]
    lines.append('{"", "", 0LL},  // keeps the table non-empty')
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("table", type=Path, nargs="?", default=CC_VALUES, help="default: spec/cc_values.toml")
    parser.add_argument("--cxx", type=Path, required=True, help="the .inc file to write")
    args = parser.parse_args(argv)
    try:
        table = cxx_table(args.table)
    except SpecError as error:
        print(error, file=sys.stderr)
        return 2
    args.cxx.parent.mkdir(parents=True, exist_ok=True)
    if not args.cxx.exists() or args.cxx.read_text() != table:
        args.cxx.write_text(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
