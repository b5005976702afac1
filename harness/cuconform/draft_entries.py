"""Draft [[expect]] entries as TOML text, written into expectation files without touching a line people wrote.

An expectation file is a human document: comments, area markers (`# --- warp ---`), the order of entries and the
layout of each one carry meaning that a TOML library's round trip would lose. So a draft is a block of text inserted
whole: under the marker of its area (after the last entry there), or at the end of the file under a new marker; a
file that does not exist yet starts with a header like sm_90.toml's. The new text is parsed before it is written and
the file is read back after: every entry that was there is still there, unchanged, and the drafts are there too.

`tomllib` reads; nothing here rewrites what it read.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from cuconform.expectations import Expectation, ExpectationError, load_file, parse_text
from cuconform.files import atomic_write

_MARKER = re.compile(r"^#\s*(?:-{3}|={3})")  # `# --- warp ---`, `# ===== Findings ... =====`
_AREA_MARKER = re.compile(r"^#\s*-{3}\s*([A-Za-z0-9_]+)")  # its first word names the area: warp, Compile(-time)


class WriteError(Exception):
    """An expectation file that cannot be written, or would not read back as written; str() is one line."""


@dataclass(frozen=True)
class Draft:
    """One entry to write: what it matches and under what, and what was observed (its evidence). No reason: the
    reviewer writes it."""

    file: str  # the expectation file's stem: sm_90, sm_9x, common
    area: str  # whose marker it goes under
    tests: tuple[str, ...]  # fnmatch patterns
    status: str
    evidence: str
    comment: str  # where it came from, shown above the entry
    compiler: str | None = None
    compiler_versions: str | None = None
    sanitizer: tuple[str, ...] | None = None
    profile: str | None = None

    def key(self) -> tuple:
        """What the entry says, for finding it again after it is read back."""
        return (
            self.tests,
            self.status,
            "",
            self.evidence,
            self.compiler,
            self.compiler_versions,
            self.sanitizer,
            self.profile,
            True,
        )


def entry_key(entry: Expectation) -> tuple:
    profile = entry.profile.value if entry.profile is not None else None
    return (
        entry.tests,
        entry.status.value,
        entry.reason,
        entry.evidence,
        entry.compiler and entry.compiler.value,
        entry.compiler_versions,
        entry.sanitizer,
        profile,
        entry.draft,
    )


def toml_string(text: str) -> str:
    """A TOML basic string: quotes, backslashes and every control character escaped (TOML allows none of them raw
    but tab), a lone surrogate (which UTF-8 cannot hold) as U+FFFD."""
    out = []
    for character in text:
        code = ord(character)
        if character in '"\\':
            out.append("\\" + character)
        elif character == "\n":
            out.append("\\n")
        elif code < 0x20 and character != "\t" or code == 0x7F:
            out.append(f"\\u{code:04X}")
        elif 0xD800 <= code <= 0xDFFF:
            out.append("\\uFFFD")
        else:
            out.append(character)
    return '"' + "".join(out) + '"'


def render(draft: Draft) -> str:
    """The entry's text, keys in the order of the reviewed entries (reason's place holds `draft = true`)."""
    lines = [f"# {line}".rstrip() for line in draft.comment.splitlines()]
    lines.append("[[expect]]")
    if len(draft.tests) == 1:
        lines.append(f"tests = [{toml_string(draft.tests[0])}]")
    else:
        lines += ["tests = [", *(f"  {toml_string(pattern)}," for pattern in draft.tests), "]"]
    lines.append(f"status = {toml_string(draft.status)}")
    if draft.compiler:
        lines.append(f"compiler = {toml_string(draft.compiler)}")
    if draft.compiler_versions:
        lines.append(f"compiler_versions = {toml_string(draft.compiler_versions)}")
    if draft.sanitizer:
        lines.append(f"sanitizer = [{', '.join(toml_string(tool) for tool in draft.sanitizer)}]")
    if draft.profile:
        lines.append(f"profile = {toml_string(draft.profile)}")
    lines.append("draft = true")
    lines.append(f"evidence = {toml_string(draft.evidence)}")
    return "\n".join(lines) + "\n"


def header(stem: str) -> str:
    """The first lines of an expectation file that does not exist yet (sm_121, sm_12x), as sm_90.toml begins."""
    match = re.fullmatch(r"sm_(\d+?)(\d|x)", stem)
    if match is None:
        what, chain = "every compute capability", "the base of each lookup chain"
    elif match.group(2) == "x":
        major = match.group(1)
        what, chain = f"compute capabilities {major}.x", f"lookup chain: sm_{major}Y -> {stem} -> common"
    else:
        major, minor = match.groups()
        what, chain = f"compute capability {major}.{minor}", f"lookup chain: {stem} -> sm_{major}x -> common"
    return (
        f"# Expectations for {what} ({chain}).\n"
        "# Only known deviations from the documentation live here; the documented values are in\n"
        "# spec/cc_values.toml.\n"
        "# Format: docs/architecture.md. Every [[expect]] entry has a reason and evidence; a draft written by\n"
        "# scripts/conformance triage has `draft = true` and no reason until someone reviews it.\n"
    )


def insert(text: str, area: str, block: str) -> str:
    """`text` with `block` after the last line of `area`'s section (its marker up to the next marker), or at the end
    under a new `# --- area ---` marker when the file has none for it. Every other line stays as it was."""
    lines = text.splitlines(keepends=True)
    wanted = area.split("-")[0].lower()  # math-ftz's entries go under math
    start = next(
        (
            index
            for index, line in enumerate(lines)
            if (match := _AREA_MARKER.match(line)) and match.group(1).lower() == wanted
        ),
        None,
    )
    if start is None:
        ending = "" if not text or text.endswith("\n") else "\n"
        gap = "" if not text.strip() else ("\n" if text.endswith("\n\n") else "\n\n")
        return f"{text}{ending}{gap}# --- {area} ---\n\n{block}"
    end = next((index for index in range(start + 1, len(lines)) if _MARKER.match(lines[index])), len(lines))
    last = end - 1
    while last > start and not lines[last].strip():
        last -= 1
    if not lines[last].endswith("\n"):
        lines[last] += "\n"
    lines.insert(last + 1, "\n" + block)
    return "".join(lines)


def writable(path: Path) -> bool:
    return os.access(path, os.W_OK)


def write(path: Path, drafts: list[Draft]) -> list[Expectation]:
    """Inserts `drafts` into the expectation file `path` (made when it does not exist); returns them as read back
    from the file, with their lines. WriteError when the file cannot be written or would not read back as it was
    plus the drafts; the file is then left as it was."""
    exists = path.exists()
    if exists and not writable(path):
        raise WriteError(f"{path}: cannot write: permission denied")
    try:
        old = path.read_text(encoding="utf-8") if exists else ""
    except (OSError, UnicodeDecodeError) as error:
        raise WriteError(f"{path}: cannot read: {error}") from None
    new = old if exists else header(path.stem)
    for draft in drafts:
        new = insert(new, draft.area, render(draft))
    try:
        before = parse_text(path, old).expectations if exists else []
        expected = Counter(map(entry_key, before)) + Counter(draft.key() for draft in drafts)
        after = parse_text(path, new).expectations
    except ExpectationError as error:  # a bug of this module, never the user's: say where, write nothing
        raise WriteError(f"{error} (in the text triage would write; nothing was written)") from None
    if Counter(map(entry_key, after)) != expected:
        raise WriteError(f"{path}: the drafts would not read back as written; nothing was written")
    try:
        atomic_write(path, new)
    except OSError as error:
        raise WriteError(f"{path}: cannot write: {error.strerror or error}") from None
    try:  # read back from the disk: what the next run will read
        written = load_file(path).expectations
    except ExpectationError as error:
        raise WriteError(str(error)) from None
    if Counter(map(entry_key, written)) != expected:
        raise WriteError(f"{path}: reads back differently from what was written")
    remaining = Counter(map(entry_key, before))
    added = []
    for entry in written:  # the drafts, with their lines: the entries beyond those that were there before
        key = entry_key(entry)
        if remaining[key]:
            remaining[key] -= 1
        else:
            added.append(entry)
    return added
