"""results.json: the one reader and the one writer of a run's results file (reports/README.md).

Every command that reads a finished run goes through `read`: diff, merge, `scripts/conformance report` (summary.md
and report.html), scripts/engine-tables. The run itself writes it through `write_results` (reports.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cuconform.files import atomic_write

RESULTS = "results.json"
FORMAT_VERSION = 1


class ResultsError(Exception):
    """A results.json that cannot be read; str() is one line for the user."""


@dataclass(frozen=True)
class RunResults:
    """A results.json as read, checked as far as every reader needs: a 'tests' list whose entries have an 'id'."""

    path: Path
    document: dict  # every key, as written: a merge and the readable reports keep what they do not know

    @property
    def tests(self) -> list[dict]:
        return self.document["tests"]

    @property
    def environment(self) -> dict:
        return self.document.get("environment") or {}

    @property
    def complete(self) -> bool:
        """False for a run cut short (Ctrl-C, pytest -x) or a merge with shards missing."""
        return bool(self.document.get("complete", True))

    @property
    def selection(self) -> dict | None:
        return self.document.get("selection")

    @property
    def folder(self) -> Path:
        return self.path.parent


def read(where: Path) -> RunResults:
    """The results of a results.json file, or of a report folder holding one (ResultsError)."""
    if not where.exists():
        raise ResultsError(f"{where}: no such file or folder")
    path = where / RESULTS if where.is_dir() else where
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ResultsError(f"{where}: not a report folder: it holds no {RESULTS}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ResultsError(f"{path}: cannot read: {error}") from None
    except ValueError as error:
        raise ResultsError(f"{path}: not JSON: {error}") from None
    if not isinstance(document, dict) or not isinstance(document.get("tests"), list):
        raise ResultsError(f"{path}: not a cuconform results.json (no 'tests' list)")
    for index, test in enumerate(document["tests"]):
        if not isinstance(test, dict) or not isinstance(test.get("id"), str):
            raise ResultsError(f"{path}: test #{index + 1} has no 'id'")
    return RunResults(path, document)


def results_line(test: dict) -> str:
    """A test's line of results.json (without its indent and comma)."""
    return json.dumps(test, ensure_ascii=False)


def write_results(path: Path, document: dict, line: Callable[[dict], str] = results_line) -> None:
    """One key per line, one test per line: readable, diffable, and fast to write (json's C encoder). `line`: each
    test's results_line (a run's are made as its tests finish, prerender.py)."""
    lines = []
    for key, value in document.items():
        if key == "tests":
            continue
        lines.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)},")
    tests = [f"  {line(test)}" for test in document.get("tests", [])]
    lines.append(' "tests": [\n' + ",\n".join(tests) + ("\n ]" if tests else "]"))
    atomic_write(path, "{\n" + "\n".join(lines) + "\n}\n")
