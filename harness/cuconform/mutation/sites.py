"""Where each operator applies, before anything is compiled: for each captured object, the number of sites of every
operator in its PTX (a text scan, no ptxas). A campaign builds a mutant only where an operator has a site, and keeps
the counts in DIR/sites.json so that a resumed campaign does not scan again.

`count(ptx)` gives what `operators.sites_by_operator` gives, faster: each line is parsed once, and a rewrite is tried
only on an instruction that starts with the literal text its pattern starts with (`atom.`, `setp.lt`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache
from pathlib import Path

from cuconform.files import atomic_write
from cuconform.mutation.operators import INSTRUCTION, OPERATORS

try:  # the regular expression parser: `re._parser` since Python 3.11, `sre_parse` before
    from re import _parser as _regex_parser
except ImportError:  # pragma: no cover - Python 3.10
    import sre_parse as _regex_parser

FORMAT = 1


@lru_cache(maxsize=None)
def literal_prefix(pattern: str) -> str:
    """The text every match of `pattern` (re.match) starts with: its leading literal characters, through a leading
    `^`, groups and the common start of alternatives ('' if none, or if the pattern cannot be read so)."""
    try:
        parsed = _regex_parser.parse(pattern)
    except Exception:  # noqa: BLE001 - no prefix is always safe
        return ""
    return _prefix(list(parsed))[0]


def _prefix(items: list) -> tuple[str, bool]:
    """The literal start of a parsed sequence, and whether the whole sequence is that literal."""
    text = []
    for opcode, argument in items:
        if opcode is _regex_parser.AT and argument is _regex_parser.AT_BEGINNING:
            continue
        if opcode is _regex_parser.LITERAL:
            text.append(chr(argument))
            continue
        if opcode is _regex_parser.SUBPATTERN:
            inner, whole = _prefix(list(argument[-1]))
            text.append(inner)
            if whole:
                continue
        elif opcode is _regex_parser.BRANCH:
            text.append(os.path.commonprefix([_prefix(list(branch))[0] for branch in argument[1]]))
        return "".join(text), False
    return "".join(text), True


def _steps(operators) -> list[tuple[str, list[tuple[str, object]]]]:
    return [(op.name, [(literal_prefix(step.pattern), step) for step in op.rule]) for op in operators]


def count(ptx: str, operators: Iterable = OPERATORS) -> dict[str, int]:
    """{operator name: sites in `ptx`} for the operators with at least one (operators.mutate's sites, counted)."""
    instructions = []
    for line in ptx.split("\n"):
        match = INSTRUCTION.match(line)
        if match is not None:
            instructions.append((match.group("body"), bool(match.group("guard"))))
    counts = {}
    for name, steps in _steps(tuple(operators)):
        sites = 0
        for body, guarded in instructions:
            for prefix, step in steps:
                if not body.startswith(prefix):
                    continue
                new = step.rewrite(body, guarded)
                if new is not None:  # the first step that applies decides, as in operators.mutate
                    sites += new != body
                    break
        if sites:
            counts[name] = sites
    return counts


def _ptx_files(manifest: dict) -> list[str]:
    if manifest.get("rdc") or manifest.get("skipped"):
        return []
    return [step["ptx"] for step in manifest.get("ptxas") or []]


def _stamp(path: str) -> list:
    try:
        status = os.stat(path)
    except OSError:
        return [path, None, None]
    return [path, status.st_size, status.st_mtime_ns]


def _count_files(paths: list[str]) -> dict[str, int]:
    total: dict[str, int] = {}
    for path in paths:
        for name, sites in count(Path(path).read_text(errors="replace")).items():
            total[name] = total.get(name, 0) + sites
    return total


def index(manifests: Iterable[dict], cache: Path | None = None, jobs: int = 0) -> dict[str, dict[str, int]]:
    """{object: {operator: sites}} for every manifest (an rdc or skipped object: {}), scanned on `jobs` processes;
    `cache` (DIR/sites.json) keeps the counts of each object with its PTX files' sizes and times, so that only an
    object whose PTX changed is scanned again."""
    kept = _read_cache(cache)
    found: dict[str, dict[str, int]] = {}
    stamps: dict[str, list] = {}
    to_scan: dict[str, list[str]] = {}
    for manifest in manifests:
        name = manifest["object"]
        files = _ptx_files(manifest)
        stamps[name] = [_stamp(path) for path in files]
        entry = kept.get(name)
        if entry is not None and entry.get("ptx") == stamps[name]:
            found[name] = entry["sites"]
        elif files:
            to_scan[name] = files
        else:
            found[name] = {}
    if to_scan:
        workers = min(jobs or os.cpu_count() or 1, len(to_scan))
        ordered = sorted(to_scan, key=lambda name: -sum(stamp[1] or 0 for stamp in stamps[name]))  # big ones first
        if workers > 1:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                for name, counted in zip(ordered, pool.map(_count_files, [to_scan[name] for name in ordered])):
                    found[name] = counted
        else:
            for name in ordered:
                found[name] = _count_files(to_scan[name])
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(
            cache,
            json.dumps(
                {
                    "format": FORMAT,
                    "objects": {name: {"ptx": stamps[name], "sites": found[name]} for name in sorted(found)},
                },
                indent=1,
            )
            + "\n",
        )
    return found


def _read_cache(cache: Path | None) -> dict[str, dict]:
    if cache is None or not cache.is_file():
        return {}
    try:
        document = json.loads(cache.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        return {}
    objects = document.get("objects")
    return objects if isinstance(objects, dict) else {}
