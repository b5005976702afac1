"""The one reader of spec/: what the documentation states, one file per kind of fact. Every file is read here (read:
the file, its TOML, and the line of each table for messages) and every malformed one is a SpecError, one line:
'file:line: what is wrong'. What each file means is read by the module that uses it:

    spec/cc_values.toml        per-CC values                        values.py (built into documented_values.inc)
    spec/sections/*.toml       the headings a rule may cite         sections.py (checked by catalog.py)
    spec/litmus/outcomes.toml  litmus outcomes                      suites/litmus/outcomes_table.py (build time)
    spec/math/bounds.toml      math accuracy bounds                 suites/math/tools/bounds.py (build time)
    spec/dated_rules.toml      the CUDA toolkit a rule applies from dated_rules() here (expectations.py skips the
                                                                    rule's tests for an older toolkit)

expectations/ holds only deviations from these; scripts/spec-sections writes the generated part of spec/sections/.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from cuconform.environment import REPO
from cuconform.files import FileLineError

SPEC = REPO / "spec"
CC_VALUES = SPEC / "cc_values.toml"
SECTIONS = SPEC / "sections"
LITMUS_OUTCOMES = SPEC / "litmus" / "outcomes.toml"
MATH_BOUNDS = SPEC / "math" / "bounds.toml"
DATED_RULES = SPEC / "dated_rules.toml"

_AT_LINE = re.compile(r"\s*\(at line (\d+), column \d+\)")
_VERSION = re.compile(r"^\d+(\.\d+)*$")


class SpecError(FileLineError):
    """A malformed file of spec/; str() is the one line a user sees: 'file:line: what is wrong'."""


@dataclass(frozen=True)
class Place:
    """Where an entry of a spec file is, for its messages: 'file:line: label: what is wrong'."""

    path: Path
    line: int
    label: str = ""

    def error(self, message: str) -> SpecError:
        return SpecError(self.path, self.line, f"{self.label}: {message}" if self.label else message)


@dataclass(frozen=True)
class SpecFile:
    """One file of spec/: its path, its text and its TOML document."""

    path: Path
    text: str
    data: dict

    def error(self, line: int, message: str) -> SpecError:
        return SpecError(self.path, line, message)

    def key_line(self, key: str) -> int:
        """The line that defines a top-level table or key: `[key]` or `[[key]]`, else `key = ...` (1: neither)."""
        name = rf'"?{re.escape(key)}"?'
        for pattern in (re.compile(rf"^\s*\[+\s*{name}\s*\]"), re.compile(rf"^\s*{name}\s*=")):
            for number, line in enumerate(self.text.splitlines(), 1):
                if pattern.match(line):
                    return number
        return 1

    def entry_lines(self, array: str) -> list[int]:
        """The line of each `[[array]]` header, in the file's order."""
        header = re.compile(rf"^\s*\[\[\s*{re.escape(array)}\s*\]\]")
        return [number for number, line in enumerate(self.text.splitlines(), 1) if header.match(line)]

    def entry_place(self, array: str, index: int, label: str = "") -> Place:
        """Where the index-th `[[array]]` entry is (line 1 when the file has fewer headers than entries)."""
        lines = self.entry_lines(array)
        return Place(self.path, lines[index] if index < len(lines) else 1, label)


def read(path: Path) -> SpecFile:
    """A spec file, read and parsed; SpecError for one that cannot be read or is not TOML (with the line)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise SpecError(path, 1, f"cannot read: {error}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        match = _AT_LINE.search(str(error))
        raise SpecError(
            path, int(match.group(1)) if match else 1, f"invalid TOML: {_AT_LINE.sub('', str(error))}"
        ) from None
    return SpecFile(path, text, data)


# --- spec/dated_rules.toml ----------------------------------------------------------------------------------------

_DATED_KEYS = {"tests", "since", "source", "why"}


@dataclass(frozen=True)
class DatedRule:
    """Rules the documentation dates: they hold from the CUDA toolkit `since` on (what they are about came, or went,
    with that release). A test of them compiled by an older toolkit says nothing about the rule."""

    tests: tuple[str, ...]  # test id patterns (fnmatch), as expectation entries name tests
    since: str  # the toolkit release, '13.0'
    source: str  # the section that dates it
    why: str
    path: Path
    line: int


def dated_rules(path: Path = DATED_RULES) -> list[DatedRule]:
    """Every [[rule]] of spec/dated_rules.toml, checked; none when the file does not exist."""
    if not path.exists():
        return []
    spec = read(path)
    if set(spec.data) - {"rule"} or not isinstance(spec.data.get("rule", []), list):
        key = sorted(set(spec.data) - {"rule"} or {"rule"})[0]
        raise spec.error(spec.key_line(key), f"'{key}': the file holds only [[rule]] tables")
    rules = []
    for index, entry in enumerate(spec.data.get("rule", [])):
        place = spec.entry_place("rule", index)
        if unknown := set(entry) - _DATED_KEYS:
            raise place.error(f"unknown key '{sorted(unknown)[0]}' (allowed: {', '.join(sorted(_DATED_KEYS))})")
        tests = entry.get("tests")
        if not isinstance(tests, list) or not tests or not all(isinstance(t, str) and t for t in tests):
            raise place.error("'tests' must be a non-empty list of test id patterns")
        since = entry.get("since")
        if not isinstance(since, str) or not _VERSION.match(since):
            raise place.error(f"'since' must be a toolkit release such as \"13.0\", not {since!r}")
        for key in ("source", "why"):
            if not isinstance(entry.get(key), str) or not entry[key].strip():
                raise place.error(f"every rule needs a non-empty '{key}'")
        rules.append(DatedRule(tuple(tests), since, entry["source"].strip(), entry["why"].strip(), path, place.line))
    return rules
