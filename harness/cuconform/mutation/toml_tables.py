"""The reader the campaign's TOML lists share (equivalent.toml, suites/<folder>/survivors.toml): a file of one array
of tables, `[[<name>]]`, each table handed back with the line of its header, so that a bad entry is one line
`<file>:<line>: what is wrong` (files.FileLineError) before anything is built or run."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Collection
from pathlib import Path

from cuconform.files import FileLineError

# (line, message) -> the error to raise: each reader's own FileLineError, naming its file.
Fail = Callable[[int, str], FileLineError]


def read_tables(path: Path, name: str, fail: Fail) -> list[tuple[dict, int]]:
    """The `[[name]]` tables of `path`, in order, each with the line of its header; an unreadable file, invalid TOML,
    another top-level key or a `name` that is no array of tables is `fail(line, what is wrong)`."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise fail(1, f"cannot read: {error}") from None
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        match = re.search(r"\(at line (\d+), column \d+\)", str(error))
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(error)) or "invalid TOML"
        raise fail(int(match.group(1)) if match else 1, f"invalid TOML: {message}") from None
    unknown = sorted(set(document) - {name})
    if unknown:
        raise fail(line_of(text, unknown[0]), f"unknown top-level key '{unknown[0]}' (expected [[{name}]])")
    tables = document.get(name, [])
    if not isinstance(tables, list):
        raise fail(line_of(text, name), f"'{name}' must be an array of tables: write [[{name}]]")
    header = re.compile(rf"^\s*\[\[\s*{re.escape(name)}\s*\]\]")
    lines = [number for number, line in enumerate(text.splitlines(), 1) if header.match(line)]
    return [(table, lines[index] if index < len(lines) else 1) for index, table in enumerate(tables)]


def check_keys(table: dict, line: int, name: str, allowed: Collection[str], fail: Fail) -> None:
    unknown = sorted(set(table) - set(allowed))
    if unknown:
        raise fail(line, f"unknown key '{unknown[0]}' in [[{name}]] (allowed: {', '.join(sorted(allowed))})")


def line_of(text: str, key: str) -> int:
    pattern = re.compile(rf"^\s*(\[+\s*{re.escape(key)}\b|{re.escape(key)}\s*=)")
    return next((number for number, line in enumerate(text.splitlines(), 1) if pattern.match(line)), 1)
