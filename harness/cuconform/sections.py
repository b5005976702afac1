"""The section registry: every heading a rule may cite, by document (spec/sections/*.toml, read by spec.py).

A rule's section is "<prefix> <number>" of one document of the registry, or the bare number for the current
Programming Guide (prefix ""): "5.4.5.1.3", "PG12.9 10.26.4", "PG12.9 17.1 Table 18", "libcu++ atomic_ref".
The harness checks every listed rule against it (catalog.py) and `scripts/conformance list --by-section` prints the
registry as a table of contents with the number of rules under each heading. docs/architecture.md, "Sections".
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from cuconform import spec
from cuconform.spec import SECTIONS, SpecError


@dataclass(frozen=True)
class Document:
    prefix: str  # "" for the current Programming Guide, "PG12.9", "libcu++", ...
    edition: str


@dataclass(frozen=True)
class Section:
    id: str  # what a rule cites: "5.4.5.1.3", "PG12.9 17.1 Table 18"
    number: str  # "5.4.5.1.3", "17.1 Table 18", "atomic_ref"
    title: str
    document: Document

    @property
    def parent_number(self) -> str | None:
        """The number of the heading that holds this one ('17.1' for '17.1 Table 18', '5.4' for '5.4.5'), if any."""
        if " Table " in self.number:
            return self.number.split(" Table ")[0]
        if re.fullmatch(r"\d+(\.\d+)+", self.number):
            return self.number.rsplit(".", 1)[0]
        return None


def section_id(prefix: str, number: str) -> str:
    return f"{prefix} {number}" if prefix else number


class Registry:
    def __init__(self, sections: list[Section]):
        self.sections = sections  # in document order
        self.by_id = {section.id: section for section in sections}

    def __contains__(self, section: str) -> bool:
        return section in self.by_id

    def parent(self, section: Section) -> Section | None:
        number = section.parent_number
        while number is not None:
            found = self.by_id.get(section_id(section.document.prefix, number))
            if found is not None:
                return found
            number = number.rsplit(".", 1)[0] if "." in number else None
        return None

    def table_of_contents(self, rules_by_section: dict[str, int]) -> list[tuple[int, Section | Document, int]]:
        """(depth, heading or document, number of rules at or under it) for every heading that holds a rule, with
        the headings above it, in document order; a document's line counts all its rules."""
        totals: dict[str, int] = {}
        documents: dict[Document, int] = {}
        for section_name, count in rules_by_section.items():
            section = self.by_id.get(section_name)
            if section is None:
                continue
            documents[section.document] = documents.get(section.document, 0) + count
            while section is not None:
                totals[section.id] = totals.get(section.id, 0) + count
                section = self.parent(section)
        rows: list[tuple[int, Section | Document, int]] = []
        shown: set[Document] = set()
        for section in self.sections:
            if section.id not in totals:
                continue
            if section.document not in shown:
                shown.add(section.document)
                rows.append((0, section.document, documents[section.document]))
            depth, above = 1, self.parent(section)
            while above is not None:
                depth, above = depth + 1, self.parent(above)
            rows.append((depth, section, totals[section.id]))
        return rows


def _load_file(path: Path) -> list[Section]:
    registry = spec.read(path)
    entries = registry.data.get("document")
    if set(registry.data) != {"document"} or not isinstance(entries, list):
        raise SpecError(path, 1, "a registry file holds only [[document]] tables (prefix, edition, sections)")
    sections = []
    for index, entry in enumerate(entries):
        prefix, edition, headings = entry.get("prefix"), entry.get("edition"), entry.get("sections")
        if (
            not isinstance(prefix, str)
            or not isinstance(edition, str)
            or not edition.strip()
            or not isinstance(headings, dict)
            or not all(isinstance(t, str) for t in headings.values())
        ):
            raise registry.entry_place("document", index).error(
                f"every [[document]] needs a 'prefix', an 'edition' and [document.sections] of \"number\" = "
                f'"title" (document {prefix!r})'
            )
        owner = Document(prefix, edition.strip())
        sections += [Section(section_id(prefix, number), number, title, owner) for number, title in headings.items()]
    return sections


@functools.lru_cache(maxsize=None)
def load(folder: Path = SECTIONS) -> Registry:
    """The registry of a folder: pg.toml (the current guide) first, then the others by name."""
    paths = sorted(
        folder.glob("*.toml"), key=lambda path: (path.name != "pg.toml", path.name == "other.toml", path.name)
    )
    if not paths:
        raise SpecError(folder, 1, "no section registry (*.toml) here")
    sections: list[Section] = []
    seen: dict[str, Path] = {}
    for path in paths:
        for section in _load_file(path):
            if section.id in seen:
                raise SpecError(path, 1, f"section '{section.id}' is also in {seen[section.id].name}")
            seen[section.id] = path
            sections.append(section)
    return Registry(sections)


def format_table_of_contents(rows: list[tuple[int, Section | Document, int]]) -> list[str]:
    """The lines of `list --by-section`: indented headings, each with its rule count at the right."""
    texts = []
    for depth, item, count in rows:
        if isinstance(item, Document):
            text = f"{item.prefix or '(number only)'}: {item.edition}"
        else:
            text = "  " * (depth - 1) + f"{item.id}  {item.title}"
        texts.append((text, count))
    width = min(max((len(text) for text, _ in texts), default=0), 100)
    return [f"{text:{width}}  {count:5d}" if len(text) <= width else f"{text}  {count}" for text, count in texts]


def by_section(cases: list) -> list[str]:
    """`scripts/conformance list --by-section`: the registry's table of contents, with the number of rules (not
    tests: a parameterized rule or a compile-time rule run by three compilers counts once) under each heading."""
    rules: dict[str, set[str]] = {}
    for case in cases:
        rules.setdefault(case.section, set()).add(case.rule_id)
    return format_table_of_contents(load().table_of_contents({name: len(ids) for name, ids in rules.items()}))
