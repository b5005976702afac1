"""Expectation files: where a GPU, driver or compiler is known to do differently from what the documentation states.

One TOML file per compute capability that has deviations, plus a common base (docs/architecture.md). For CC 9.0 the
lookup chain is sm_90 -> sm_9x -> common (files that do not exist are left out); the first entry that matches a test
wins. What the documentation states (per-CC values, litmus outcomes, math bounds, the toolkit a rule applies from)
lives in spec/, not here: a rule that spec/dated_rules.toml dates is skipped, before any entry is looked at, for a
test whose toolkit predates it (dated_skips).
"""

from __future__ import annotations

import fnmatch
import functools
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from cuconform import spec
from cuconform.files import FileLineError
from cuconform.kinds import SANITIZER_TOOLS, Compiler, Profile, names
from cuconform.status import Expected

_ENTRY_KEYS = {
    "tests",
    "status",
    "reason",
    "evidence",
    "compiler",
    "compiler_versions",
    "toolkit_versions",
    "sanitizer",
    "profile",
    "draft",
}
_VERSION_CLAUSE = re.compile(r"^\s*(>=|<=|==|>|<)\s*(\d+(?:\.\d+)*)\s*$")


class ExpectationError(FileLineError):
    """A malformed expectation file."""


@dataclass(frozen=True)
class Expectation:
    tests: tuple[str, ...]
    status: Expected
    reason: str
    evidence: str
    path: Path
    line: int
    compiler: Compiler | None = None
    compiler_versions: str | None = None
    sanitizer: tuple[str, ...] | None = None  # holds only in a run under one of these compute-sanitizer tools
    profile: Profile | None = None  # holds only in a run of this profile (a finding only the full sweep reaches)
    # holds only for a build whose CUDA toolkit (headers, libcu++, NVRTC) is in this range, whichever compiler built
    # it: what clang compiles from a toolkit's headers is keyed by the toolkit, not by clang's own version
    toolkit_versions: str | None = None
    # Written by `scripts/conformance triage` and not reviewed yet: honoured, but every report shows it apart as
    # "accepted without review", and `run --strict` fails while one judges a test. Reviewing means writing its
    # reason and deleting `draft = true`; until then it has evidence (what was observed) and no reason.
    draft: bool = False

    @property
    def where(self) -> str:
        return f"{self.path.name}:{self.line}"

    def matches(
        self,
        test_id: str,
        compiler: str | None = None,
        compiler_version: str | None = None,
        sanitizer: str | None = None,
        profile: str | None = None,
        toolkit_version: str | None = None,
    ) -> bool:
        if self.toolkit_versions and not version_in(toolkit_version, self.toolkit_versions):
            return False
        if self.sanitizer is not None and sanitizer not in self.sanitizer:
            return False
        if self.profile is not None and profile != self.profile:
            return False
        if self.compiler is not None:
            if compiler != self.compiler:
                return False
            if self.compiler_versions and not version_in(compiler_version, self.compiler_versions):
                return False
        return self.pattern.match(test_id) is not None

    @functools.cached_property
    def pattern(self) -> re.Pattern[str]:
        """The entry's fnmatch patterns as one compiled regular expression (a run looks up thousands of tests)."""
        return re.compile("|".join(f"(?:{fnmatch.translate(p)})" for p in self.tests))


@dataclass
class ExpectationFile:
    path: Path
    expectations: list[Expectation] = field(default_factory=list)

    @property
    def scope(self) -> str:
        return self.path.stem


@functools.lru_cache(maxsize=None)
def version_in(version: str | None, spec: str) -> bool:
    """Whether a dotted version satisfies a comma-separated spec such as '>=22,<23'."""
    if version is None:
        return False
    have = _version_tuple(version)
    for clause in spec.split(","):
        op, wanted = _VERSION_CLAUSE.match(clause).groups()
        want = _version_tuple(wanted)
        width = max(len(have), len(want))
        a, b = have + (0,) * (width - len(have)), want + (0,) * (width - len(want))
        if not {">=": a >= b, "<=": a <= b, "==": a == b, ">": a > b, "<": a < b}[op]:
            return False
    return True


def _version_tuple(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version))


def _header_lines(text: str, header: re.Pattern[str]) -> list[int]:
    return [number for number, line in enumerate(text.splitlines(), 1) if header.match(line)]


def _key_line(text: str, key: str) -> int:
    """The line that defines a top-level key or table, for error messages."""
    pattern = re.compile(rf'^\s*(\[+\s*{re.escape(key)}\b|{re.escape(key)}\s*=|"{re.escape(key)}"\s*=)')
    for number, line in enumerate(text.splitlines(), 1):
        if pattern.match(line):
            return number
    return 1


def load_file(path: Path) -> ExpectationFile:
    """Parses and validates one expectation file; raises ExpectationError naming the file and line."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ExpectationError(path, 1, f"cannot read: {error}") from None
    return parse_text(path, text)


def parse_text(path: Path, text: str) -> ExpectationFile:
    """The expectation file `path` as if it held `text` (triage checks what it would write before writing it)."""
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        match = re.search(r"\(at line (\d+), column \d+\)", str(error))
        line = int(match.group(1)) if match else 1
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(error)) or "invalid TOML"
        raise ExpectationError(path, line, f"invalid TOML: {message}") from None

    if "values" in document:
        raise ExpectationError(
            path,
            _key_line(text, "values"),
            "documented values live in spec/cc_values.toml, "
            "not in expectations/ (which holds only [[expect]] entries: known deviations)",
        )
    unknown = set(document) - {"expect"}
    if unknown:
        key = sorted(unknown)[0]
        raise ExpectationError(path, _key_line(text, key), f"unknown top-level key '{key}' (expected [[expect]])")

    parsed = ExpectationFile(path)
    entries = document.get("expect", [])
    if not isinstance(entries, list):
        raise ExpectationError(path, 1, "'expect' must be an array of tables: write [[expect]]")
    lines = _header_lines(text, re.compile(r"^\s*\[\[\s*expect\s*\]\]"))
    for index, entry in enumerate(entries):
        line = lines[index] if index < len(lines) else 1
        parsed.expectations.append(_parse_entry(path, line, entry))
    return parsed


def _parse_entry(path: Path, line: int, entry: dict) -> Expectation:
    def fail(message: str) -> ExpectationError:
        return ExpectationError(path, line, message)

    unknown = set(entry) - _ENTRY_KEYS
    if unknown:
        raise fail(f"unknown key '{sorted(unknown)[0]}' in [[expect]] (allowed: {', '.join(sorted(_ENTRY_KEYS))})")
    tests = entry.get("tests")
    if isinstance(tests, str):
        tests = [tests]
    if not tests or not isinstance(tests, list) or not all(isinstance(t, str) and t for t in tests):
        raise fail("'tests' must be a non-empty list of test id patterns")
    status = _member(Expected, entry.get("status"))
    if status is None:
        raise fail(f"'status' must be one of {', '.join(names(Expected))}, not {entry.get('status')!r}")
    draft = entry.get("draft", False)
    if not isinstance(draft, bool):
        raise fail(f"'draft' must be true or false, not {draft!r}")
    for required in ("reason", "evidence"):
        value = entry.get(required)
        if required == "reason" and draft and value is None:
            continue  # a draft of scripts/conformance triage: its reason is for the reviewer to write
        if not isinstance(value, str) or not value.strip():
            hint = (
                " (a draft of scripts/conformance triage has `draft = true` until it is reviewed)"
                if required == "reason"
                else ""
            )
            raise fail(f"every entry needs a non-empty '{required}'{hint}")
    compiler = entry.get("compiler")
    if compiler is not None:
        compiler = _member(Compiler, compiler)
        if compiler is None:
            raise fail(f"'compiler' must be one of {', '.join(names(Compiler))}, not {entry['compiler']!r}")
    versions = entry.get("compiler_versions")
    if versions is not None:
        if compiler is None:
            raise fail("'compiler_versions' needs 'compiler'")
        if not _is_version_spec(versions):
            raise fail(f"'compiler_versions' must look like '>=22,<23', not {versions!r}")
    toolkit_versions = entry.get("toolkit_versions")
    if toolkit_versions is not None and not _is_version_spec(toolkit_versions):
        raise fail(f"'toolkit_versions' must look like '>=13.0,<13.1', not {toolkit_versions!r}")
    sanitizer = entry.get("sanitizer")
    if isinstance(sanitizer, str):
        sanitizer = [sanitizer]
    if sanitizer is not None and (
        not isinstance(sanitizer, list) or not sanitizer or not all(tool in SANITIZER_TOOLS for tool in sanitizer)
    ):
        raise fail(f"'sanitizer' must name tools among {', '.join(SANITIZER_TOOLS)}, not {entry['sanitizer']!r}")
    profile = entry.get("profile")
    if profile is not None:
        profile = _member(Profile, profile)
        if profile is None:
            raise fail(f"'profile' must be one of {', '.join(names(Profile))}, not {entry['profile']!r}")
    return Expectation(
        tuple(tests),
        status,
        (entry.get("reason") or "").strip(),
        entry["evidence"].strip(),
        path,
        line,
        compiler,
        versions,
        tuple(sanitizer) if sanitizer else None,
        profile,
        toolkit_versions,
        draft,
    )


def _is_version_spec(spec: object) -> bool:
    return isinstance(spec, str) and all(_VERSION_CLAUSE.match(clause) for clause in spec.split(","))


def _member(kind, value: object):
    """The member of enum `kind` whose value is `value`; None for anything else (a number, a misspelling)."""
    try:
        return kind(value)
    except (ValueError, TypeError):
        return None


def chain_names(cc: str | None) -> list[str]:
    """'9.0' -> ['sm_90', 'sm_9x', 'common']; no device -> ['common']."""
    if cc is None:
        return ["common"]
    major, minor = cc.split(".")
    return [f"sm_{major}{minor}", f"sm_{major}x", "common"]


def load_directory(directory: Path) -> dict[str, ExpectationFile]:
    """Every expectation file of the directory, validated, by scope name."""
    return {path.stem: load_file(path) for path in sorted(directory.glob("*.toml"))}


@functools.lru_cache(maxsize=None)
def dated_skips(path: Path = spec.DATED_RULES) -> tuple[Expectation, ...]:
    """The rules spec/dated_rules.toml dates, as entries that skip their tests where the toolkit (of the test's
    compiler, else of the build) predates the rule: such a result would say nothing about it. SpecError for a
    malformed file."""
    return tuple(
        Expectation(
            rule.tests,
            Expected.SKIP,
            f"{rule.source}: {rule.why}; the rule holds from CUDA {rule.since} on, and this test's toolkit is older",
            f"documented: {rule.source} ({rule.path.name})",
            rule.path,
            rule.line,
            toolkit_versions=f"<{rule.since}",
        )
        for rule in spec.dated_rules(path)
    )


class Expectations:
    """The chain of expectation files for one device, after the skips of the dated rules (dated_skips)."""

    def __init__(self, files: list[ExpectationFile], dated: tuple[Expectation, ...] = ()):
        self.files = files
        self.dated = dated

    @classmethod
    def for_cc(cls, directory: Path, cc: str | None) -> "Expectations":
        available = load_directory(directory)
        return cls([available[name] for name in chain_names(cc) if name in available], dated_skips())

    @property
    def chain(self) -> list[str]:
        return [str(f.path) for f in self.files]

    def lookup(
        self,
        test_id: str,
        compiler: str | None = None,
        compiler_version: str | None = None,
        sanitizer: str | None = None,
        profile: str | None = None,
        toolkit_version: str | None = None,
    ) -> Expectation | None:
        for dated in self.dated:
            if dated.matches(test_id, compiler, compiler_version, sanitizer, profile, toolkit_version):
                return dated
        if sanitizer:  # what a sanitizer tool needs comes first: a test that cannot run under it does not run
            for expectation_file in self.files:
                for expectation in expectation_file.expectations:
                    if expectation.sanitizer and expectation.matches(
                        test_id, compiler, compiler_version, sanitizer, profile, toolkit_version
                    ):
                        return expectation
        for expectation_file in self.files:
            for expectation in expectation_file.expectations:
                if expectation.matches(test_id, compiler, compiler_version, sanitizer, profile, toolkit_version):
                    return expectation
        return None

    def stale(self, test_ids: list[str]) -> list[Expectation]:
        """Entries that match none of the given tests (whatever the compiler)."""
        return [
            expectation
            for expectation_file in self.files
            for expectation in expectation_file.expectations
            if not any(expectation.pattern.match(test_id) for test_id in test_ids)
        ]
