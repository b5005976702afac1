"""equivalent.toml: the mutants that change the machine code but nothing a program can observe, each with why.

    [[equivalent]]
    operator = "ld-cache-hint-drop"   # an operator of operators.OPERATORS
    area = "memory"                   # optional: only in this area; without it, in every area
    why = "a cache eviction hint changes no value a load returns (PTX ISA 9.0, ld: .level::eviction_priority)"

An entry that names one area wins over one naming the operator alone. A malformed file is one line,
`<file>:<line>: what is wrong` (EquivalentError), before anything is built or run.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from cuconform.files import FileLineError
from cuconform.mutation.toml_tables import check_keys, read_tables

DEFAULT = Path(__file__).resolve().with_name("equivalent.toml")
_KEYS = {"operator", "area", "why"}


class EquivalentError(FileLineError):
    """A malformed equivalent.toml."""


@dataclass(frozen=True)
class Equivalent:
    operator: str
    area: str | None
    why: str
    line: int


class Equivalents:
    def __init__(self, path: Path, entries: list[Equivalent]):
        self.path = path
        self.entries = entries
        self._by_key = {(entry.operator, entry.area): entry for entry in entries}

    def why(self, operator: str, area: str) -> str | None:
        """Why `operator` in `area` has no observable effect, or None when no entry says so."""
        entry = self._by_key.get((operator, area)) or self._by_key.get((operator, None))
        return entry.why if entry else None

    def where(self, entry: Equivalent) -> str:
        return f"{self.path.name}:{entry.line}"


def load(path: Path, operators: Collection[str], areas: Collection[str] | None = None) -> Equivalents:
    """The entries of `path`, each checked: known keys, an operator of `operators`, an area of `areas` (when given),
    a non-empty why, no entry twice."""

    def fail(line: int, message: str) -> EquivalentError:
        return EquivalentError(path, line, message)

    entries: list[Equivalent] = []
    seen: dict[tuple[str, str | None], int] = {}
    for table, line in read_tables(path, "equivalent", fail):
        entry = _entry(table, line, operators, areas, fail)
        key = (entry.operator, entry.area)
        if key in seen:
            raise fail(
                line,
                f"operator '{entry.operator}'{f' in area {entry.area!r}' if entry.area else ''} is "
                f"listed already, at line {seen[key]}",
            )
        seen[key] = line
        entries.append(entry)
    return Equivalents(path, entries)


def _entry(table: dict, line: int, operators: Collection[str], areas: Collection[str] | None, fail) -> Equivalent:
    check_keys(table, line, "equivalent", _KEYS, fail)
    operator, area, why = table.get("operator"), table.get("area"), table.get("why")
    if not isinstance(operator, str) or operator not in operators:
        raise fail(line, f"'operator' must name an operator of operators.py, not {operator!r}")
    if area is not None and (not isinstance(area, str) or (area not in areas if areas is not None else not area)):
        raise fail(line, f"'area' must name an area of suites/, not {area!r}")
    if not isinstance(why, str) or not why.strip():
        raise fail(line, "every entry needs a non-empty 'why': what makes the change unobservable")
    return Equivalent(operator, area, why.strip(), line)
